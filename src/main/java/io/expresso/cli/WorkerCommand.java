package io.expresso.cli;

import io.expresso.runtime.Device;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.metrics.LagMonitor;
import io.expresso.metrics.Metrics;
import io.expresso.metrics.TaskMetricsObserver;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.Topics;
import io.expresso.runtime.Worker;
import io.expresso.web.HttpEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code expresso worker}: consume tasks, evaluate them on this machine's devices, produce results. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = "Serve tasks from Kafka (consumer group expresso-workers) on this machine's devices;"
        + " results and offsets are committed in one transaction. Stops cleanly on SIGTERM.")
final class WorkerCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--bootstrap", required = true, paramLabel = "B", description = "Kafka bootstrap servers, e.g. 127.0.0.1:9092")
  String bootstrap;

  @Option(names = "--devices", paramLabel = "D", description = "auto (every GPU the CUDA driver reports, else one CPU device per core), cpu:N, or gpu:0,gpu:1"
      + " (default: ${DEFAULT-VALUE})")
  String devices = "auto";

  @Option(names = "--id", paramLabel = "ID", description = "worker id (default: random); also names its Kafka transactions")
  String id;

  @Option(names = "--commit-interval-ms", paramLabel = "MS", description = "commit results and offsets every MS milliseconds (default: ${DEFAULT-VALUE})")
  int commitIntervalMs = 100;

  @Option(names = "--partitions", paramLabel = "N", description = "partitions per topic if the topics must be created (default: ${DEFAULT-VALUE})")
  int partitions = Topics.DEFAULT_PARTITIONS;

  @Option(names = "--metrics-port", paramLabel = "M", description = "serve Prometheus /metrics on this port (default: ${DEFAULT-VALUE} = any free port, printed)")
  int metricsPort = 0;

  @Option(names = "--metrics-host", paramLabel = "H", description = "address /metrics listens on (default: ${DEFAULT-VALUE})")
  String metricsHost = "0.0.0.0";

  @Override
  public Integer call() throws Exception {
    List<Device> ds = UsageChecks.devices(spec, devices);
    UsageChecks.range(spec, "--commit-interval-ms", commitIntervalMs, 1, 60_000);
    UsageChecks.port(spec, "--metrics-port", metricsPort);
    Topics.ensure(bootstrap, partitions);
    Worker.Settings s = Worker.Settings.of(bootstrap, ds).withCommitInterval(Duration.ofMillis(commitIntervalMs));
    if (id != null) {
      s = s.withWorkerId(id);
    }
    Metrics metrics = new Metrics();
    ds.forEach(d -> metrics.tasks().registerDevice(d.id()));
    try (HttpEndpoint http = HttpEndpoint.metrics(metricsHost, metricsPort, metrics);
         LagMonitor lag = LagMonitor.start(bootstrap, Worker.GROUP, TaskKind.topics(), metrics.tasks(), Duration.ofSeconds(5))) {
      Worker w = Worker.start(s, EvaluatorRegistry.defaults(), new TaskMetricsObserver(metrics.tasks()));
      System.err.println("worker " + w.id() + ": serving " + bootstrap + " on " + ds + " (group " + Worker.GROUP + ")"
          + ", metrics http://" + metricsHost + ":" + http.port() + "/metrics");
      // On SIGTERM the JVM exits as soon as its shutdown hooks finish, maybe before this thread
      // runs again: a hook of ours waits for the drained worker and says so.
      AtomicBoolean said = new AtomicBoolean();
      Runnable sayStopped = () -> {
        if (said.compareAndSet(false, true)) {
          System.err.println("worker " + w.id() + ": stopped");
        }
      };
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          w.awaitTermination();
        } catch (Exception e) {
          return;
        }
        sayStopped.run();
      }, "expresso-worker-stopped"));
      w.awaitTermination();
      sayStopped.run();
    }
    return 0;
  }
}
