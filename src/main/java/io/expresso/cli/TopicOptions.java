package io.expresso.cli;

import io.expresso.runtime.TaskTimeouts;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Whether and how a command creates the expresso topics on an existing cluster. Off by default:
 * on a shared cluster, partitions, replicas and retention are its operator's decision, so a
 * missing topic is an error that names the topics and {@code --create-topics}.
 */
final class TopicOptions {

  @Option(names = "--create-topics", description = "create the expresso topics that are missing (without it, a missing"
      + " topic is an error)")
  boolean create;

  @Option(names = "--partitions", paramLabel = "N", description = "with --create-topics: partitions of the results,"
      + " dead-letter, model and progress topics (default: " + Topics.DEFAULT_PARTITIONS + ")")
  int partitions = Topics.DEFAULT_PARTITIONS;

  @Option(names = "--task-partitions", paramLabel = "N", description = "with --create-topics: partitions of "
      + Topics.TASKS + " (default: " + Topics.DEFAULT_TASK_PARTITIONS + ": every worker serves every task; Kafka's"
      + " share assignor splits the workers over the partitions)")
  int taskPartitions = Topics.DEFAULT_TASK_PARTITIONS;

  @Option(names = "--replication-factor", paramLabel = "N", description = "with --create-topics: replicas per partition"
      + " (default: the cluster's default.replication.factor)")
  Integer replicationFactor;

  @Option(names = "--results-retention", paramLabel = "T", description = "with --create-topics: how long expresso.results"
      + " and expresso.dead-letters keep records, e.g. 30d or 12h; -1 = forever (default: ${DEFAULT-VALUE})")
  String resultsRetention = "-1";

  /** Creates the missing topics (--create-topics) or checks that they all exist; a usage error for bad values. */
  void prepare(CommandSpec spec, KafkaClients clients) {
    Topics.prepare(clients, creation(spec), create);
  }

  Topics.Creation creation(CommandSpec spec) {
    UsageChecks.range(spec, "--partitions", partitions, 1, 10_000);
    UsageChecks.range(spec, "--task-partitions", taskPartitions, 1, 10_000);
    if (replicationFactor != null) {
      UsageChecks.range(spec, "--replication-factor", replicationFactor, 1, Short.MAX_VALUE);
    }
    short rf = replicationFactor == null ? Topics.CLUSTER_DEFAULT_REPLICATION : replicationFactor.shortValue();
    return new Topics.Creation(partitions, taskPartitions, rf, retentionMs(spec, resultsRetention));
  }

  /** {@code -1} or {@code forever}: keep forever; else a positive duration with unit d, h, m, s or ms. */
  static long retentionMs(CommandSpec spec, String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals("-1") || t.equals("forever")) {
      return Topics.KEEP_FOREVER;
    }
    Duration d;
    try {
      d = t.endsWith("d")
          ? Duration.ofDays(Long.parseLong(t.substring(0, t.length() - 1)))
          : TaskTimeouts.duration(t);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--results-retention '" + text
          + "' is not -1 (forever) or a duration like 30d, 12h, 90m");
    }
    if (d.isNegative() || d.isZero()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--results-retention '" + text
          + "' must be positive, or -1 for forever");
    }
    return d.toMillis();
  }
}
