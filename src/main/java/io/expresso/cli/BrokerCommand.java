package io.expresso.cli;

import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code expresso broker}: a standalone embedded Kafka broker (KRaft) with the topics created. */
@Command(name = "broker", mixinStandardHelpOptions = true,
    description = "Run a real single-node Kafka broker (KRaft) in-process on loopback, create the"
        + " expresso topics, print 'ready <bootstrap>' and serve until stopped (Ctrl-C / SIGTERM).")
final class BrokerCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--port", paramLabel = "P", description = "listener port on 127.0.0.1 (default: 9092; 0 = any free port)")
  int port = 9092;

  @Option(names = "--dir", paramLabel = "D", description = "log directory, kept across restarts (default: a temporary directory, deleted on exit)")
  Path dir;

  @Option(names = "--partitions", paramLabel = "N", description = "partitions per topic (default: ${DEFAULT-VALUE})")
  int partitions = Topics.DEFAULT_PARTITIONS;

  @Option(names = "--results-retention", paramLabel = "T", description = "how long expresso.results and"
      + " expresso.dead-letters keep records, e.g. 30d or 12h; -1 = forever (default: ${DEFAULT-VALUE})")
  String resultsRetention = "-1";

  @Override
  public Integer call() throws Exception {
    UsageChecks.port(spec, "--port", port);
    UsageChecks.range(spec, "--partitions", partitions, 1, 1000);
    long retention = TopicOptions.retentionMs(spec, resultsRetention);
    System.err.println("broker: starting Kafka (KRaft) on 127.0.0.1:" + port + "...");
    EmbeddedBroker broker = EmbeddedBroker.start(port, dir);
    try {
      Topics.create(broker.clients(), new Topics.Creation(partitions, Topics.DEFAULT_TASK_PARTITIONS, (short) 1, retention));
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      broker.close();
      stopped.countDown();
    }, "expresso-broker-stop"));
    spec.commandLine().getOut().println("ready " + broker.bootstrap());
    spec.commandLine().getOut().flush();
    stopped.await();
    return 0;
  }
}
