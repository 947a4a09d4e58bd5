package io.expresso.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.management.ManagementFactory;

/**
 * One process's metrics: a Prometheus registry with the JVM and process meters bound, plus the
 * task meters (workers) and result meters (aggregator) on top of it, sharing one {@link
 * LabelGuard} so a label is capped the same way in every meter.
 */
public final class Metrics implements AutoCloseable {

  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gc;
  private final TaskMeters tasks;
  private final ResultMeters results;

  /** Label caps from the environment ({@link LabelGuard#fromEnvironment}). */
  public Metrics() {
    this(LabelGuard.fromEnvironment());
  }

  public Metrics(LabelGuard labels) {
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // Two Micrometer binder names break Prometheus conventions (promtool check metrics): the CPU
    // time in nanoseconds (abbreviated unit) and a gauge ending in _count. Replace the first by
    // the standard process_cpu_seconds_total, rename the second.
    registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals("process.cpu.time")));
    registry.config().meterFilter(new MeterFilter() {
      @Override
      public Meter.Id map(Meter.Id id) {
        return id.getName().equals("system.cpu.count") ? id.withName("system.cpu.logical.processors") : id;
      }
    });
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      FunctionCounter.builder("process.cpu", os, o -> o.getProcessCpuTime() / 1e9)
          .baseUnit("seconds").description("CPU time used by the process").register(registry);
    }
    new JvmMemoryMetrics().bindTo(registry);
    gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
    tasks = new TaskMeters(registry, labels);
    tasks.memoryPool("cpu", io.expresso.engine.MemoryPool.cpu());
    results = new ResultMeters(registry, labels);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public TaskMeters tasks() {
    return tasks;
  }

  public ResultMeters results() {
    return results;
  }

  /** The Prometheus text exposition (format 0.0.4), what {@code /metrics} serves. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
