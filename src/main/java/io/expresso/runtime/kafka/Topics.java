package io.expresso.runtime.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The topic names, their creation and the check that they exist. Every record's key is the task id.
 * Topics are created only where asked ({@code --create-topics}; always for the embedded broker):
 * on a shared cluster, partitions, replicas and retention are the operator's decision.
 */
public final class Topics {

  /**
   * Every task, of every kind (its message type in the record header {@link #HEADER_TASK_TYPE}). One topic of
   * few partitions: Kafka's default share assignor gives each partition ceil(members / partitions)
   * members, so a share group that subscribes to many partitions splits the fleet over them, and a
   * task waits in a partition whose members are busy while others idle. With one partition every
   * worker serves every task.
   */
  public static final String TASKS = "expresso.tasks";
  public static final String RESULTS = "expresso.results";
  /** Trained checkpoints, compacted so the latest per key survives. */
  public static final String MODELS = "expresso.models";
  public static final String DEAD_LETTERS = "expresso.dead-letters";
  /** Per-epoch progress of running train tasks (TrainProgress, key = task id; kept a day). */
  public static final String PROGRESS = "expresso.progress";
  /**
   * Where the broker writes a task it gave up on (Kafka's share-group dead-letter topic, KIP-1191):
   * its delivery limit reached while no worker acknowledged it, e.g. its last delivery never reached
   * a worker. Only the task's place (headers {@code __dlq.errors.*}); the workers turn each into an
   * error result ({@code ArchivedTasks}). The name has the broker's required prefix {@code dlq.}.
   */
  public static final String BROKER_DEAD_LETTERS = "dlq.expresso.tasks";
  /** The topic config that lets the broker write a share group's dead letters to a topic. */
  static final String DLQ_TOPIC_ENABLE = "errors.deadletterqueue.group.enable";

  /**
   * A task record's header naming the protobuf message type of its value ({@code
   * expresso.v1.PairTask}, ...): every kind travels on {@link #TASKS}, and this says which.
   */
  public static final String HEADER_TASK_TYPE = "expresso.task-type";

  /** Dead-letter headers: why, and where the record came from. */
  public static final String HEADER_REASON = "expresso.reason";
  public static final String HEADER_MESSAGE = "expresso.message";
  public static final String HEADER_SOURCE = "expresso.source";
  /** Set when a dead letter's value or message was cut to fit the broker's record limit: what was kept of what. */
  public static final String HEADER_TRUNCATED = "expresso.truncated";

  public static final int DEFAULT_PARTITIONS = 32;

  /**
   * Partitions of the task topic: one, so that every member of the share group serves it (see
   * {@link #TASKS}). More only for a stream of tiny tasks beyond one partition's rate, and then at
   * most the number of workers.
   */
  public static final int DEFAULT_TASK_PARTITIONS = 1;

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

  /** Every topic Expresso uses. */
  public static final List<String> ALL = List.of(TASKS, RESULTS, DEAD_LETTERS, MODELS, PROGRESS, BROKER_DEAD_LETTERS);

  /** Replication factor -1: the cluster's {@code default.replication.factor}. */
  public static final short CLUSTER_DEFAULT_REPLICATION = -1;

  /** Retention -1: results and dead letters are kept forever. */
  public static final long KEEP_FOREVER = -1;

  /** How long a check waits for the cluster to answer unless the client config sets default.api.timeout.ms. */
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  /**
   * How missing topics are created.
   *
   * @param partitions partitions of the results, dead-letter, model and progress topics: for throughput
   *     (parallel appends and fetches)
   * @param taskPartitions partitions of the task topic ({@link #DEFAULT_TASK_PARTITIONS}): the share group hands
   *     out tasks one by one to any number of workers, and every partition more splits the fleet
   * @param replicationFactor replicas per partition, or {@link #CLUSTER_DEFAULT_REPLICATION}
   * @param resultsRetentionMs how long results and dead letters are kept, or {@link #KEEP_FOREVER}
   */
  public record Creation(int partitions, int taskPartitions, short replicationFactor, long resultsRetentionMs) {
    public Creation {
      if (partitions < 1) {
        throw new IllegalArgumentException("partition count must be at least 1, got " + partitions);
      }
      if (taskPartitions < 1) {
        throw new IllegalArgumentException("task topic partition count must be at least 1, got " + taskPartitions);
      }
      if (replicationFactor < 1 && replicationFactor != CLUSTER_DEFAULT_REPLICATION) {
        throw new IllegalArgumentException("replication factor must be at least 1, got " + replicationFactor);
      }
      if (resultsRetentionMs < 1 && resultsRetentionMs != KEEP_FOREVER) {
        throw new IllegalArgumentException("results retention must be positive or -1 (forever), got " + resultsRetentionMs + " ms");
      }
    }

    /** For the embedded single-node broker: one replica, results kept forever. */
    public static Creation singleNode(int partitions, int taskPartitions) {
      return new Creation(partitions, taskPartitions, (short) 1, KEEP_FOREVER);
    }

    /** The topics that are created with these settings (all of {@link #ALL}). */
    List<NewTopic> topics() {
      Optional<Short> rf = replicationFactor == CLUSTER_DEFAULT_REPLICATION ? Optional.empty() : Optional.of(replicationFactor);
      Optional<Integer> n = Optional.of(partitions);
      // explicit retention: otherwise results vanish after the broker's default (7 days)
      Map<String, String> kept = Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(resultsRetentionMs));
      List<NewTopic> wanted = new ArrayList<>();
      wanted.add(new NewTopic(TASKS, Optional.of(taskPartitions), rf));
      wanted.add(new NewTopic(RESULTS, n, rf).configs(kept));
      wanted.add(new NewTopic(DEAD_LETTERS, n, rf).configs(kept));
      // rare records (a task the broker gave up on): one partition is plenty
      Map<String, String> brokerDeadLetters = new HashMap<>(kept);
      brokerDeadLetters.put(DLQ_TOPIC_ENABLE, "true");
      wanted.add(new NewTopic(BROKER_DEAD_LETTERS, Optional.of(1), rf).configs(brokerDeadLetters));
      // records up to 32 MiB: users' TorchScript modules are larger than the broker's 1 MB default
      wanted.add(new NewTopic(MODELS, n, rf).configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG,
          TopicConfig.CLEANUP_POLICY_COMPACT, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(32 << 20))));
      // live progress only: a day is plenty for a page that shows the latest epoch
      wanted.add(new NewTopic(PROGRESS, n, rf).configs(Map.of(TopicConfig.RETENTION_MS_CONFIG,
          String.valueOf(24 * 3600_000L))));
      return wanted;
    }
  }

  /**
   * Creates every missing topic on the plaintext cluster at {@code bootstrap} with one replica and
   * results kept forever (the embedded broker, tests), {@code partitions} each but the task topic's
   * {@link #DEFAULT_TASK_PARTITIONS}, as deployed, and waits until their partitions take writes.
   */
  public static void ensure(String bootstrap, int partitions) {
    create(KafkaClients.of(bootstrap), Creation.singleNode(partitions, DEFAULT_TASK_PARTITIONS));
  }

  /**
   * What a command that writes to Kafka does first: creates the missing topics when asked
   * ({@code create}), else checks that all of them exist.
   *
   * @throws IllegalStateException naming the missing topics and {@code --create-topics}, or saying
   *     why the cluster did not answer (unreachable, refused credentials, not authorised)
   */
  public static void prepare(KafkaClients clients, Creation creation, boolean create) {
    if (create) {
      create(clients, creation);
    } else {
      // the brokers' dead-letter topic is a safety net, not a need: without it a worker serves and
      // says what is at risk (ClusterCheck), so a cluster set up before it still runs
      require(clients, ALL.stream().filter(t -> !t.equals(BROKER_DEAD_LETTERS)).toList());
    }
  }

  /** Fails, naming them and {@code --create-topics}, when any of {@code topics} is missing. */
  public static void require(KafkaClients clients, Collection<String> topics) {
    List<String> missing = missing(clients, topics);
    if (!missing.isEmpty()) {
      throw new IllegalStateException("the Kafka cluster at " + clients.bootstrap() + " lacks the topic"
          + (missing.size() == 1 ? " " : "s ") + String.join(", ", missing)
          + "; create them with --create-topics (with --replication-factor N and --results-retention T as the cluster"
          + " needs) or ask its operator to");
    }
  }

  /** Which of {@code topics} the cluster lacks (a bounded wait: a silent cluster is an error, not a hang). */
  public static List<String> missing(KafkaClients clients, Collection<String> topics) {
    try (Admin admin = Admin.create(adminConfig(clients))) {
      Set<String> existing = listTopics(admin, clients);
      return topics.stream().filter(t -> !existing.contains(t)).toList();
    }
  }

  /**
   * Creates every topic that is missing (idempotent), waits until their partitions take writes, and
   * sets the share group's configs ({@link ShareGroup}: from the earliest task, the delivery limit).
   */
  public static void create(KafkaClients clients, Creation creation) {
    createTopics(clients, creation);
    ShareGroup.configure(clients, ShareGroup.Settings.DEFAULTS);
  }

  private static void createTopics(KafkaClients clients, Creation creation) {
    try (Admin admin = Admin.create(adminConfig(clients))) {
      Set<String> existing = listTopics(admin, clients);
      List<NewTopic> wanted = new ArrayList<>(creation.topics());
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
      throw new IllegalStateException("interrupted while creating topics on " + clients.bootstrap(), e);
    } catch (ClusterAnswerException e) {
      throw e;
    } catch (Exception e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new IllegalStateException("cannot create topics on " + clients.bootstrap() + ": " + cause.getMessage()
          + (cause instanceof org.apache.kafka.common.errors.InvalidReplicationFactorException
              ? " (set --replication-factor to at most the number of brokers)" : ""), e);
    }
  }

  private static Properties adminConfig(KafkaClients clients) {
    Properties p = clients.admin();
    p.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
    return p;
  }

  /**
   * The cluster's topic names, or a clear error: the first call to a cluster is where a wrong
   * address, a missing TLS/SASL setting or refused credentials show, and a client that is not let
   * in only sees its connections close, so the wait is bounded.
   */
  private static Set<String> listTopics(Admin admin, KafkaClients clients) {
    String timeout = clients.extra().get(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    long ms = timeout == null ? ANSWER_TIMEOUT.toMillis() : Long.parseLong(timeout);
    try {
      return admin.listTopics(new ListTopicsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, ms)))
          .names().get(ms + 5_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking " + clients.bootstrap() + " for its topics", e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw ClusterAnswerException.silent(clients, ms);
    } catch (ExecutionException e) {
      throw ClusterAnswerException.of(clients, e.getCause(), ms);
    }
  }

  /** The cluster did not answer, or refused to: says which and where to look. */
  static final class ClusterAnswerException extends IllegalStateException {
    private ClusterAnswerException(String message, Throwable cause) {
      super(message, cause);
    }

    static ClusterAnswerException silent(KafkaClients clients, long ms) {
      return new ClusterAnswerException("no answer from Kafka at " + clients.describe() + " within " + ms / 1000
          + " s: is the broker up and reachable, and does it expect TLS or SASL? Client security settings go in"
          + " --kafka-config FILE or the file named by " + KafkaClients.CONFIG_ENV, null);
    }

    static ClusterAnswerException of(KafkaClients clients, Throwable cause, long ms) {
      if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
        return silent(clients, ms);
      }
      if (cause instanceof AuthenticationException) {
        return new ClusterAnswerException("Kafka at " + clients.describe() + " refused to authenticate: "
            + cause.getMessage() + " (check the credentials in --kafka-config or " + KafkaClients.CONFIG_ENV + ")", cause);
      }
      if (cause instanceof AuthorizationException) {
        return new ClusterAnswerException("Kafka at " + clients.describe() + " denied access: " + cause.getMessage()
            + " (the principal needs Describe on the expresso.* topics, and Create with --create-topics)", cause);
      }
      return new ClusterAnswerException("cannot list the topics of Kafka at " + clients.describe() + ": " + cause, cause);
    }
  }
}
