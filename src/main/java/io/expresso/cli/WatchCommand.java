package io.expresso.cli;

import io.expresso.metrics.Metrics;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import io.expresso.web.LiveService;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso watch}: the live page and the aggregator's {@code /metrics} for an existing
 * cluster (workers running elsewhere), until stopped.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
    description = "Serve the live page and Prometheus /metrics (results, accuracy, attacks, lag) for the"
        + " Kafka cluster at --bootstrap until stopped (Ctrl-C / SIGTERM).")
final class WatchCommand implements Callable<Integer> {

  /** What the live page reads: the results and the task topics (for progress). */
  private static final List<String> TOPICS_READ = Stream.concat(Stream.of(Topics.RESULTS), List.of(Topics.TASKS).stream())
      .toList();

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();

  @Option(names = "--metrics-port", paramLabel = "M", description = "port of the live page and /metrics (default: ${DEFAULT-VALUE}; 0 = any free port)")
  int metricsPort = 9400;

  @Option(names = "--host", paramLabel = "H", description = "address to listen on; 0.0.0.0 to serve other hosts"
      + " (default: ${DEFAULT-VALUE}, this host only)")
  String host = "127.0.0.1";

  @Override
  public Integer call() throws Exception {
    UsageChecks.port(spec, "--metrics-port", metricsPort);
    KafkaClients clients = kafka.clients(spec);
    Metrics metrics = new Metrics();
    LiveService live = LiveService.start(clients, host, metricsPort, metrics);
    List<String> missing;
    try {
      missing = Topics.missing(clients, TOPICS_READ);
    } catch (RuntimeException e) {
      live.close();
      throw e; // the cluster is unreachable or refuses these clients: say so now, not never
    }
    if (!missing.isEmpty()) {
      // a watcher may start before the first worker or publisher: it follows the topics once they appear
      System.err.println("watch: waiting for " + String.join(", ", missing) + " (a worker or publisher with"
          + " --create-topics creates them)");
    }
    Aggregator aggregator = live.aggregator().start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      aggregator.close();
      live.close();
      metrics.close();
      stopped.countDown();
    }, "expresso-watch-stop"));
    spec.commandLine().getOut().println("live http://" + host + ":" + live.port() + "/");
    spec.commandLine().getOut().flush();
    stopped.await();
    return 0;
  }
}
