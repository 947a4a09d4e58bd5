package io.expresso.cli;

import io.expresso.runtime.Aggregator;
import io.expresso.runtime.Device;
import io.expresso.runtime.EmbeddedBroker;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.Topics;
import io.expresso.runtime.Worker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

  @Option(names = "--devices", paramLabel = "D", description = "worker devices: auto, cpu:N, gpu:0,... (default: ${DEFAULT-VALUE})")
  String devices = "auto";

  @Option(names = "--partitions", paramLabel = "N", description = "partitions per topic (default: ${DEFAULT-VALUE})")
  int partitions = Topics.DEFAULT_PARTITIONS;

  @Override
  public Integer call() throws Exception {
    List<Device> ds;
    try {
      ds = Device.parse(devices);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (kafkaPort < 0 || kafkaPort > 65535) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--kafka-port " + kafkaPort + " is not a TCP port");
    }
    EmbeddedBroker broker = EmbeddedBroker.start(kafkaPort, dir);
    Topics.ensure(broker.bootstrap(), partitions);
    Worker worker = Worker.start(Worker.Settings.of(broker.bootstrap(), ds), EvaluatorRegistry.defaults(), TaskObserver.NONE);
    AtomicInteger seen = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    Aggregator aggregator = new Aggregator(broker.bootstrap(), null)
        .addListener(r -> {
          int n = seen.incrementAndGet();
          int e = r.hasError() ? errors.incrementAndGet() : errors.get();
          if (n % 100 == 0 || r.hasError()) {
            System.err.println("up: " + n + " unique results (" + e + " errors)");
          }
        })
        .start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      aggregator.close();
      worker.close();
      broker.close();
      stopped.countDown();
    }, "expresso-up-stop"));
    spec.commandLine().getOut().println("ready " + broker.bootstrap());
    spec.commandLine().getOut().flush();
    stopped.await();
    return 0;
  }
}
