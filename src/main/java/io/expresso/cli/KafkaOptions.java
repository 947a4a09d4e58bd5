package io.expresso.cli;

import io.expresso.runtime.kafka.KafkaClients;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** How a command that talks to an existing Kafka cluster reaches it: {@code --bootstrap} and {@code --kafka-config}. */
final class KafkaOptions {

  @Option(names = "--bootstrap", paramLabel = "B",
      description = "Kafka bootstrap servers, e.g. 127.0.0.1:9092 (or bootstrap.servers in the --kafka-config file)")
  String bootstrap;

  @Option(names = "--kafka-config", paramLabel = "FILE",
      description = "Kafka client properties for a secured cluster (security.protocol, sasl.mechanism, sasl.jaas.config,"
          + " ssl.*, ...), used by every client of this command (default: the file named by $"
          + KafkaClients.CONFIG_ENV + ", else none)")
  Path config;

  /**
   * The clients to use. A missing {@code --bootstrap} is bad usage; a config file that cannot be
   * read or holds invalid values is an error naming the file.
   */
  KafkaClients clients(CommandSpec spec) {
    String fromEnv = System.getenv(KafkaClients.CONFIG_ENV);
    if (bootstrap == null && config == null && (fromEnv == null || fromEnv.isBlank())) {
      throw new CommandLine.ParameterException(spec.commandLine(), "missing --bootstrap B (the Kafka cluster's address)");
    }
    return KafkaClients.resolve(bootstrap, config, System::getenv);
  }

  /** Whether the user said anything about a cluster (for commands where an embedded broker is the alternative). */
  boolean given() {
    return bootstrap != null || config != null;
  }
}
