package io.expresso.cli;

import io.expresso.metrics.Metrics;
import io.expresso.runtime.Aggregator;
import io.expresso.web.LiveService;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso watch}: the live page and the aggregator's {@code /metrics} for an existing
 * cluster (workers running elsewhere), until stopped.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
    description = "Serve the live page and Prometheus /metrics (results, accuracy, attacks, lag) for the"
        + " Kafka cluster at --bootstrap until stopped (Ctrl-C / SIGTERM).")
final class WatchCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--bootstrap", required = true, paramLabel = "B", description = "Kafka bootstrap servers, e.g. 127.0.0.1:9092")
  String bootstrap;

  @Option(names = "--metrics-port", paramLabel = "M", description = "port of the live page and /metrics (default: ${DEFAULT-VALUE}; 0 = any free port)")
  int metricsPort = 9400;

  @Option(names = "--host", paramLabel = "H", description = "address to listen on (default: ${DEFAULT-VALUE})")
  String host = "127.0.0.1";

  @Override
  public Integer call() throws Exception {
    UsageChecks.port(spec, "--metrics-port", metricsPort);
    Metrics metrics = new Metrics();
    LiveService live = LiveService.start(bootstrap, host, metricsPort, metrics);
    Aggregator aggregator = live.attach(new Aggregator(bootstrap, null)).start();
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
