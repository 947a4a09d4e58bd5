package io.expresso.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/** The topic names and their creation. Every record's key is the task id. */
public final class Topics {

  public static final String TASKS_PAIR = "expresso.tasks.pair";
  public static final String TASKS_TRAIN = "expresso.tasks.train";
  public static final String TASKS_ATTACK = "expresso.tasks.attack";
  public static final String TASKS_SYNTHETIC = "expresso.tasks.synthetic";
  public static final String RESULTS = "expresso.results";
  /** Trained checkpoints, compacted so the latest per key survives. */
  public static final String MODELS = "expresso.models";
  public static final String DEAD_LETTERS = "expresso.dead-letters";
  /** Attempts to run tasks, per task partition (compacted; see {@link Attempts}). */
  public static final String ATTEMPTS = "expresso.attempts";

  /** Dead-letter headers: why, and where the record came from. */
  public static final String HEADER_REASON = "expresso.reason";
  public static final String HEADER_MESSAGE = "expresso.message";
  public static final String HEADER_SOURCE = "expresso.source";
  /** Set when a dead letter's value or message was cut to fit the broker's record limit: what was kept of what. */
  public static final String HEADER_TRUNCATED = "expresso.truncated";

  public static final int DEFAULT_PARTITIONS = 32;

  private Topics() {}

  /**
   * Waits until every partition of the new topics answers a list-offsets request at its leader.
   * A leader in the metadata is not enough: the broker creates the partition's log a moment later,
   * and an idempotent producer whose first batch for a partition failed there while its next batch
   * went through was seen to retry that first batch forever (out-of-order sequence) on a loaded
   * machine. List-offsets takes the same path as a produce request, so a partition that answers it
   * takes writes.
   */
  private static void awaitWritable(Admin admin, List<String> topics) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Exception last = null;
    while (System.nanoTime() < deadline) {
      try {
        Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames().get(60, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> all = new HashMap<>();
        boolean leaders = true;
        for (TopicDescription t : d.values()) {
          for (TopicPartitionInfo part : t.partitions()) {
            leaders &= part.leader() != null && !part.leader().isEmpty();
            all.put(new TopicPartition(t.name(), part.partition()), OffsetSpec.latest());
          }
        }
        if (leaders) {
          admin.listOffsets(all).all().get(60, TimeUnit.SECONDS);
          return;
        }
      } catch (ExecutionException e) {
        last = e; // not ready yet (unknown partition, no leader): ask again
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("partitions of " + topics + " still take no requests after 60 s"
        + (last == null ? "" : ": " + last.getCause()));
  }

  /** Creates every topic that is missing (idempotent) and waits until their partitions take writes. */
  public static void ensure(String bootstrap, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partition count must be at least 1, got " + partitions);
    }
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
    try (Admin admin = Admin.create(p)) {
      Set<String> existing = admin.listTopics().names().get(60, TimeUnit.SECONDS);
      List<NewTopic> wanted = new ArrayList<>();
      for (String t : List.of(TASKS_PAIR, TASKS_TRAIN, TASKS_ATTACK, TASKS_SYNTHETIC, RESULTS, DEAD_LETTERS)) {
        wanted.add(new NewTopic(t, partitions, (short) 1));
      }
      wanted.add(new NewTopic(MODELS, partitions, (short) 1)
          .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
      // compacted, and rolled often so compaction keeps it to about one record per task partition
      wanted.add(new NewTopic(ATTEMPTS, Math.min(partitions, 8), (short) 1).configs(Map.of(
          TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
          TopicConfig.SEGMENT_MS_CONFIG, String.valueOf(10 * 60_000),
          TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.1")));
      wanted.removeIf(t -> existing.contains(t.name()));
      if (wanted.isEmpty()) {
        return;
      }
      try {
        admin.createTopics(wanted).all().get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
      awaitWritable(admin, wanted.stream().map(NewTopic::name).toList());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics on " + bootstrap, e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create topics on " + bootstrap + ": " + e.getMessage(), e);
    }
  }
}
