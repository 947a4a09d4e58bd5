package io.expresso.cli;

import io.expresso.metrics.Metrics;
import io.expresso.metrics.TaskMetricsObserver;
import io.expresso.proto.v1.Result;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.ResultListener;
import io.expresso.runtime.kafka.Topics;
import io.expresso.web.LiveService;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code expresso up}: broker, worker and aggregator in one process until stopped. */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = "Run an embedded Kafka broker, a worker and the result aggregator until stopped"
        + " (Ctrl-C / SIGTERM). Publish with 'expresso publish --bootstrap <printed address>'.")
final class UpCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--kafka-port", paramLabel = "P", description = "broker port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 = any free port)")
  int kafkaPort = 9092;

  @Option(names = "--dir", paramLabel = "D", description = "broker log directory (default: temporary)")
  Path dir;

  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();

  @Option(names = "--devices", paramLabel = "D", description = "worker devices: auto (every GPU, 4 evaluations each; else a CPU device per core), cpu:N, gpu:0,..., gpu:0x4 (4 evaluations at once on GPU 0) (default: ${DEFAULT-VALUE})")
  String devices = "auto";

  @Option(names = "--partitions", paramLabel = "N", description = "partitions per topic (default: ${DEFAULT-VALUE})")
  int partitions = Topics.DEFAULT_PARTITIONS;

  @Option(names = "--results-retention", paramLabel = "T", description = "how long expresso.results and"
      + " expresso.dead-letters keep records, e.g. 30d or 12h; -1 = forever (default: ${DEFAULT-VALUE})")
  String resultsRetention = "-1";

  @Option(names = "--metrics-port", paramLabel = "M", description = "serve the live page and Prometheus /metrics on this port (default: ${DEFAULT-VALUE}; 0 = any free port)")
  int metricsPort = 9400;

  @Option(names = "--host", paramLabel = "H", description = "address the live page and /metrics listen on; 0.0.0.0 to"
      + " serve other hosts (default: ${DEFAULT-VALUE}, this host only)")
  String host = "127.0.0.1";

  @Option(names = "--allow-user-models", description = "let the worker run users' TorchScript modules"
      + " (publish brec --model torchscript:FILE); they are code, so they are refused unless this is given")
  boolean allowUserModels;

  @Override
  public Integer call() throws Exception {
    precision.apply(spec);
    List<DeviceSlot> ds = UsageChecks.devices(spec, devices);
    UsageChecks.port(spec, "--kafka-port", kafkaPort);
    UsageChecks.port(spec, "--metrics-port", metricsPort);
    UsageChecks.range(spec, "--partitions", partitions, 1, 10_000);
    long retention = TopicOptions.retentionMs(spec, resultsRetention);
    EmbeddedBroker broker = EmbeddedBroker.start(kafkaPort, dir);
    KafkaClients clients = broker.clients();
    try {
      // our own broker: its topics are ours to create
      Topics.create(clients, new Topics.Creation(partitions, Topics.DEFAULT_TASK_PARTITIONS, (short) 1, retention));
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    Metrics metrics = new Metrics();
    ds.forEach(d -> metrics.tasks().registerDevice(d));
    LiveService live;
    try {
      live = LiveService.start(clients, host, metricsPort, metrics);
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    EvaluatorRegistry registry = EvaluatorRegistry.defaults();
    Worker worker = Worker.start(Worker.Settings.of(clients, ds), allowUserModels ? registry.allowUserModules() : registry,
        new TaskMetricsObserver(metrics.tasks()));
    AtomicInteger seen = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    AtomicInteger duplicates = new AtomicInteger();
    Aggregator aggregator = live.aggregator()
        .addListener(new ResultListener() {
          @Override
          public void onResult(Result r) {
            int n = seen.incrementAndGet();
            int e = r.hasError() ? errors.incrementAndGet() : errors.get();
            if (n % 100 == 0 || r.hasError()) {
              System.err.println("up: " + n + " unique results (" + e + " errors, " + duplicates.get()
                  + " duplicate records)");
            }
          }

          @Override
          public void onDuplicate(Result r) {
            duplicates.incrementAndGet();
          }

          @Override
          public void onSuperseded(Result later) {
            duplicates.incrementAndGet();
            if (!later.hasError()) {
              System.err.println("up: " + io.expresso.report.Escape.terminal(later.getTaskId()) + " succeeded on a retry (" + errors.decrementAndGet()
                  + " errors)");
            }
          }
        })
        .start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      aggregator.close();
      worker.close();
      live.close();
      broker.close();
      stopped.countDown();
    }, "expresso-up-stop"));
    System.err.println("up: live page http://" + host + ":" + live.port() + "/  metrics http://" + host + ":" + live.port() + "/metrics");
    spec.commandLine().getOut().println("ready " + broker.bootstrap());
    spec.commandLine().getOut().flush();
    stopped.await();
    return 0;
  }
}
