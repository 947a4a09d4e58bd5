package io.expresso.metrics;

import static io.expresso.metrics.MeterNames.*;

import io.expresso.engine.MemoryPool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Worker-side meters: tasks received, completed and failed by kind, their duration by kind and
 * model, and per device the tasks in flight and the busy time. Thread-safe; device workers call
 * it from their own dispatchers. The model and error reason come from task content and pass the
 * {@link LabelGuard}; kind, device, group and topic are the worker's own.
 */
public final class TaskMeters {

  /** Histogram buckets for task durations: from a no-op synthetic task to a long GNN training. */
  private static final Duration[] DURATION_BUCKETS = {
    Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
    Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
    Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
    Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(300),
    Duration.ofSeconds(600)
  };

  private final MeterRegistry registry;
  private final LabelGuard guard;
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
  private final Map<String, Counter> busy = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> lag = new ConcurrentHashMap<>();
  /** Per device, when its current task started (System.nanoTime), 0 when idle. */
  private final Map<String, AtomicLong> taskStart = new ConcurrentHashMap<>();

  TaskMeters(MeterRegistry registry, LabelGuard guard) {
    this.registry = registry;
    this.guard = guard;
  }

  /** Makes a device's series visible (at zero) before its first task. */
  public void registerDevice(String device) {
    inFlightOf(device);
    busyOf(device);
    startOf(device);
  }

  /** A task of {@code kind} was taken from its topic and handed to {@code device}. */
  public void started(String kind, String device) {
    received(kind).increment();
    inFlightOf(device).incrementAndGet();
    startOf(device).set(System.nanoTime());
  }

  /**
   * A task {@linkplain #started started} on {@code device} finished after {@code seconds}: a result
   * when {@code errorReason} is null, else an error result with that short reason (such as
   * "invalid-graph6"). {@code model} is the model spec or method, "none" when there is none.
   */
  public void finished(String kind, String device, String model, double seconds, String errorReason) {
    inFlightOf(device).decrementAndGet();
    startOf(device).set(0);
    busyOf(device).increment(seconds);
    Timer.builder(TASK_DURATION).description("Time to evaluate a task")
        .serviceLevelObjectives(DURATION_BUCKETS)
        .tags(guard.series(TASK_DURATION, MODEL, LabelGuard.modelName(model))).tag(KIND, kind).register(registry)
        .record(Duration.ofNanos(Math.round(seconds * 1e9)));
    if (errorReason == null) {
      completed(kind).increment();
    } else {
      failed(kind, guard.value(REASON, errorReason)).increment();
    }
  }

  private Counter received(String kind) {
    return Counter.builder(TASKS_RECEIVED).description("Tasks taken from Kafka").tag(KIND, kind).register(registry);
  }

  private Counter completed(String kind) {
    return Counter.builder(TASKS_COMPLETED).description("Tasks that produced a result").tag(KIND, kind).register(registry);
  }

  private Counter failed(String kind, String reason) {
    return Counter.builder(TASKS_FAILED).description("Tasks that became an error result")
        .tag(KIND, kind).tag(REASON, reason).register(registry);
  }

  /**
   * Makes the worker's counters visible at zero before their first event (a failure or a poison
   * task may never come; a dashboard should still show 0, not "no data"), for these task kinds and
   * failure reasons: closed sets of the worker's own, so they bypass the label guard's caps.
   */
  public void registerFleet(java.util.Collection<String> kinds, java.util.Collection<String> failureReasons) {
    for (String kind : kinds) {
      received(kind);
      completed(kind);
      for (String reason : failureReasons) {
        failed(kind, reason);
      }
      for (String reason : java.util.List.of("stopping", "interrupted")) {
        Counter.builder(TASKS_CANCELLED).description("Running tasks cancelled and released to be delivered again")
            .tag(KIND, kind).tag(REASON, reason).register(registry);
      }
      Counter.builder(TASK_ATTEMPTS).description("Task starts on a device, one per delivery that ran")
          .tag(KIND, kind).register(registry);
      Counter.builder(TASKS_POISON).description("Tasks dead-lettered after taking down workers too often")
          .tag(KIND, kind).register(registry);
    }
    handedBack(0);
    Counter.builder(TASK_LOOP_RESTARTS).description("Task loop failures recovered with new Kafka clients").register(registry);
  }

  /** A running task was handed back for {@code reason} (stopping, interrupted) after {@code seconds}: it leaves no result here. */
  public void cancelled(String kind, String device, String reason, double seconds) {
    inFlightOf(device).decrementAndGet();
    startOf(device).set(0);
    busyOf(device).increment(seconds);
    Counter.builder(TASKS_CANCELLED).description("Running tasks cancelled and released to be delivered again")
        .tag(KIND, kind).tag(REASON, reason).register(registry).increment();
  }

  /** Queued tasks this worker released before they started (a stop). */
  public void handedBack(int tasks) {
    Counter.builder(TASKS_HANDED_BACK).description("Queued tasks released before they started (the worker stopped)")
        .register(registry).increment(tasks);
  }

  /** Starts of {@code tasks} tasks recorded as attempts. */
  public void attempts(String kind, int tasks) {
    Counter.builder(TASK_ATTEMPTS).description("Task starts on a device, one per delivery that ran")
        .tag(KIND, kind).register(registry).increment(tasks);
  }

  /** A task dead-lettered as poison instead of run. */
  public void poison(String kind) {
    Counter.builder(TASKS_POISON).description("Tasks dead-lettered after taking down workers too often")
        .tag(KIND, kind).register(registry).increment();
  }

  /** The task loop failed and started again. */
  public void restart() {
    Counter.builder(TASK_LOOP_RESTARTS).description("Task loop failures recovered with new Kafka clients")
        .register(registry).increment();
  }

  /**
   * Records the share group's backlog on a topic (tasks published and not yet acknowledged:
   * waiting or running), as last measured.
   */
  public void lag(String group, String topic, long records) {
    lag.computeIfAbsent(group + '\u0000' + topic, k -> {
      AtomicLong value = new AtomicLong();
      Gauge.builder(CONSUMER_LAG, value, AtomicLong::get).baseUnit("records")
          .description("Tasks on the topic the share group has not acknowledged yet (waiting or running)")
          .tag(GROUP, group).tag(TOPIC, topic).register(registry);
      return value;
    }).set(records);
  }

  /**
   * Exposes the memory pool of {@code device} ({@code cpu}, {@code gpu:0}: one per physical device,
   * {@link MemoryPool#of}): its size, what the running pairs hold of it and the pairs waiting for
   * it. A device that waits for memory shows here.
   */
  public void memoryPool(String device, MemoryPool pool) {
    Gauge.builder(MEMORY_POOL_SIZE, pool, MemoryPool::total).baseUnit("bytes").tag(DEVICE, device)
        .description("Activation memory the evaluations on the device share (half of the machine's or the GPU's)")
        .register(registry);
    Gauge.builder(MEMORY_POOL_LEASED, pool, p -> p.total() - p.free()).baseUnit("bytes").tag(DEVICE, device)
        .description("What the pairs running on the device hold of its memory pool").register(registry);
    Gauge.builder(MEMORY_POOL_WAITING, pool, MemoryPool::waiting).baseUnit("pairs").tag(DEVICE, device)
        .description("Pairs waiting for the device's memory pool to hold their passes").register(registry);
  }

  /**
   * Makes a device slot's series visible before its first task ({@link #registerDevice(String)}),
   * and a GPU's memory pool (the one its slots share) where the GPU can be sized.
   */
  public void registerDevice(io.expresso.runtime.DeviceSlot slot) {
    registerDevice(slot.id());
    if (slot.isGpu()) {
      ai.djl.Device gpu = slot.djl();
      try {
        memoryPool(io.expresso.engine.Devices.name(gpu), MemoryPool.of(gpu));
      } catch (RuntimeException | LinkageError e) {
        // no CUDA to size it with: the GPU's first task fails with the reason, no pool to show
      }
    }
  }

  private AtomicInteger inFlightOf(String device) {
    return inFlight.computeIfAbsent(device, d -> {
      AtomicInteger value = new AtomicInteger();
      Gauge.builder(TASKS_IN_FLIGHT, value, AtomicInteger::get)
          .description("Tasks the device is working on").tag(DEVICE, d).register(registry);
      return value;
    });
  }

  private AtomicLong startOf(String device) {
    return taskStart.computeIfAbsent(device, d -> {
      AtomicLong start = new AtomicLong();
      Gauge.builder(DEVICE_TASK_AGE, start, s -> s.get() == 0 ? 0 : (System.nanoTime() - s.get()) / 1e9)
          .baseUnit("seconds").description("How long the device's current task has run (0 when idle)")
          .tag(DEVICE, d).register(registry);
      return start;
    });
  }

  private Counter busyOf(String device) {
    return busy.computeIfAbsent(device, d -> Counter.builder(DEVICE_BUSY).baseUnit("seconds")
        .description("Time the device spent on tasks").tag(DEVICE, d).register(registry));
  }
}
