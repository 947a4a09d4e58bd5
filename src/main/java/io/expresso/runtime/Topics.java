package io.expresso.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
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

  /** Dead-letter headers: why, and where the record came from. */
  public static final String HEADER_REASON = "expresso.reason";
  public static final String HEADER_MESSAGE = "expresso.message";
  public static final String HEADER_SOURCE = "expresso.source";

  public static final int DEFAULT_PARTITIONS = 32;

  private Topics() {}

  /**
   * Waits until every partition of the new topics has a leader: producers that write the moment a
   * topic exists otherwise start on leader-not-available retries, and on a loaded machine an
   * idempotent producer was seen to stall in out-of-order-sequence errors after them.
   */
  private static void awaitLeaders(Admin admin, List<String> topics) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      Map<String, TopicDescription> d = admin.describeTopics(topics).allTopicNames().get(60, TimeUnit.SECONDS);
      boolean ready = d.values().stream()
          .allMatch(t -> t.partitions().stream().allMatch(part -> part.leader() != null && !part.leader().isEmpty()));
      if (ready) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("partitions of " + topics + " still have no leader after 60 s");
      }
      Thread.sleep(50);
    }
  }

  /** Creates every topic that is missing (idempotent) and waits until their partitions have leaders. */
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
      awaitLeaders(admin, wanted.stream().map(NewTopic::name).toList());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics on " + bootstrap, e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot create topics on " + bootstrap + ": " + e.getMessage(), e);
    }
  }
}
