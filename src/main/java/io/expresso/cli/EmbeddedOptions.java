package io.expresso.cli;

import io.expresso.runtime.kafka.KafkaClients;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --embedded} and {@code --metrics-port} of the experiments: run on a broker and a worker
 * started in this process, and serve their live page, instead of on a cluster ({@link KafkaOptions}).
 */
final class EmbeddedOptions {

  @Option(names = "--embedded", description = "start an embedded broker and a worker in this process")
  boolean embedded;

  @Option(names = "--metrics-port", paramLabel = "M", description = "with --embedded: serve the live page (the"
      + " experiment as it runs: each epoch's losses, the results as they come) and Prometheus /metrics on this port,"
      + " 0 = any free port (default: none; without --embedded, run 'expresso watch' against the cluster)")
  Integer metricsPort;

  /** Either a cluster or {@code --embedded}, not both; {@code --metrics-port} only with {@code --embedded}. */
  void check(CommandSpec spec, KafkaOptions kafka) {
    boolean cluster = kafka.given() || System.getenv(KafkaClients.CONFIG_ENV) != null;
    if (embedded ? kafka.given() : !cluster) {
      throw new CommandLine.ParameterException(spec.commandLine(), "give either --bootstrap B or --embedded");
    }
    if (metricsPort != null) {
      if (!embedded) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--metrics-port serves the embedded broker's"
            + " live page: give it with --embedded, or run 'expresso watch --bootstrap B' beside a cluster");
      }
      UsageChecks.port(spec, "--metrics-port", metricsPort);
    }
  }
}
