package io.expresso.runtime.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;

/**
 * The share group the workers take tasks from (KIP-932), and the group configs it needs. A share
 * group starts at the latest offset unless told otherwise, which would skip every task published
 * before the first worker joined, so {@code share.auto.offset.reset=earliest} is set; the broker
 * stops delivering a record after {@code share.delivery.count.limit} deliveries without telling
 * anyone, so the limit is set one above the workers' own poison limit, which turns the last
 * delivery into an error result and a dead letter instead of silence; a running task keeps its
 * lock by RENEW acknowledgements (KIP-1222), which the group must allow ({@code
 * share.renew.acknowledge.enable}, on by default in Kafka 4.4, set anyway).
 *
 * <p>The worker's poison limit catches a task only at a delivery a worker sees. The broker also
 * counts deliveries no worker saw (records a fetch acquired into the client's buffer while a
 * renewal was pending, or a fetch answered as its broker died) and, once a record's count reaches
 * the limit, archives it when that delivery ends in anything but ACCEPT or REJECT (its lock runs
 * out, it is released, its consumer leaves): Kafka 4.4's {@code SharePartition}, without a word.
 * So the group also names Kafka's own dead-letter topic (KIP-1191, {@code
 * errors.deadletterqueue.topic.name} = {@link Topics#BROKER_DEAD_LETTERS}): the broker writes such a
 * task's place there and the workers turn it into an error result ({@code ArchivedTasks}); nothing
 * is lost silently. The workers still write {@code expresso.dead-letters} themselves, with the
 * reason, message and bytes of each failure: the broker's dead letters carry none of that.
 */
public final class ShareGroup {

  /** The one share group of the fleet. */
  public static final String NAME = "expresso-workers";

  /** Deliveries without a result after which a task is poison (an error result, not run again). */
  public static final int DEFAULT_MAX_DELIVERIES = 3;

  /** The broker's default upper bound of a group's delivery count limit ({@code group.share.max.delivery.count.limit}). */
  public static final int BROKER_MAX_DELIVERY_LIMIT = 10;

  /**
   * The group configs to set.
   *
   * @param maxDeliveries the workers' poison limit: the broker's limit is one more
   * @param lockDuration the acquisition lock of a delivered task ({@code share.record.lock.duration.ms}), or null for
   *     the broker's default (30 s); a running task renews its lock, so this is how long a task of a worker that
   *     stopped answering stays locked
   * @param sessionTimeout how long a silent worker stays a member ({@code share.session.timeout.ms}), or null for the
   *     broker's default (45 s)
   * @param heartbeat how often members heartbeat ({@code share.heartbeat.interval.ms}), which is also how soon a
   *     joining worker gets its first task; null for the broker's default (5 s)
   */
  public record Settings(int maxDeliveries, Duration lockDuration, Duration sessionTimeout, Duration heartbeat) {
    public Settings {
      if (maxDeliveries < 1 || maxDeliveries + 1 > BROKER_MAX_DELIVERY_LIMIT) {
        throw new IllegalArgumentException("max deliveries must be 1 to " + (BROKER_MAX_DELIVERY_LIMIT - 1)
            + " (the broker's share.delivery.count.limit is one more, at most " + BROKER_MAX_DELIVERY_LIMIT + "), got "
            + maxDeliveries);
      }
    }

    public static final Settings DEFAULTS = new Settings(DEFAULT_MAX_DELIVERIES, null, null, null);

    /** One worker's: its poison limit, nothing else. */
    public static Settings forWorker(int maxDeliveries) {
      return new Settings(maxDeliveries, null, null, null);
    }

    Map<String, String> configs() {
      Map<String, String> c = new java.util.LinkedHashMap<>();
      c.put(AUTO_OFFSET_RESET, "earliest");
      c.put(DELIVERY_COUNT_LIMIT, String.valueOf(maxDeliveries + 1));
      c.put(RENEW, "true");
      c.put(DEAD_LETTER_TOPIC, Topics.BROKER_DEAD_LETTERS);
      if (lockDuration != null) {
        c.put("share.record.lock.duration.ms", String.valueOf(lockDuration.toMillis()));
      }
      if (sessionTimeout != null) {
        c.put("share.session.timeout.ms", String.valueOf(sessionTimeout.toMillis()));
      }
      if (heartbeat != null) {
        c.put("share.heartbeat.interval.ms", String.valueOf(heartbeat.toMillis()));
      }
      return c;
    }
  }

  static final String AUTO_OFFSET_RESET = "share.auto.offset.reset";
  static final String DELIVERY_COUNT_LIMIT = "share.delivery.count.limit";
  static final String RENEW = "share.renew.acknowledge.enable";
  static final String DEAD_LETTER_TOPIC = "errors.deadletterqueue.topic.name";

  private ShareGroup() {}

  /**
   * A share consumer of {@code group}: explicit acknowledgement (a task is acknowledged only after
   * its result is produced), and {@code record_limit} acquisition of at most {@code acquire}
   * records a poll with nothing fetched ahead, so a busy worker holds no task an idle one could run.
   */
  public static Properties consumerConfig(KafkaClients clients, String group, String clientId, int acquire) {
    Properties p = clients.consumer();
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    p.put("share.acknowledgement.mode", "explicit");
    p.put("share.acquire.mode", "record_limit");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(acquire));
    return p;
  }

  /** Why the group needs config {@code key} as set here, for messages. */
  static String why(String key) {
    return switch (key) {
      case AUTO_OFFSET_RESET -> "latest skips every task published before the first worker joined";
      case DELIVERY_COUNT_LIMIT -> "one more than the workers' --max-deliveries, so the last delivery ends as a dead"
          + " letter instead of being archived silently";
      case RENEW -> "tasks longer than the lock keep it only by RENEW acknowledgements";
      case DEAD_LETTER_TOPIC -> "a task whose delivery limit runs out at a delivery no worker saw is written there and"
          + " becomes an error result, instead of being archived silently";
      default -> "asked for by the worker";
    };
  }

  /**
   * Sets the group configs of {@link #NAME} (idempotent; a group config may be set before the
   * group exists). A broker that does not know the dead-letter topic config (before Kafka 4.4) gets
   * the others, and the failure says what is then at risk.
   *
   * @throws IllegalStateException saying which configs could not be set and why (e.g. no AlterConfigs right on the group)
   */
  public static void configure(KafkaClients clients, Settings settings) {
    Map<String, String> configs = settings.configs();
    try {
      alter(clients, configs);
    } catch (IllegalStateException e) {
      if (!(e.getCause() instanceof InvalidConfigurationException || e.getCause() instanceof InvalidRequestException)) {
        throw e;
      }
      Map<String, String> rest = new java.util.LinkedHashMap<>(configs);
      rest.remove(DEAD_LETTER_TOPIC);
      alter(clients, rest);
      throw new IllegalStateException("the share group " + NAME + " got " + rest + " but not " + DEAD_LETTER_TOPIC + "="
          + Topics.BROKER_DEAD_LETTERS + " (" + e.getCause().getMessage() + "; Kafka 4.4 has it, KIP-1191): a task whose"
          + " last delivery reaches no worker is archived by the broker without a result", e.getCause());
    }
  }

  private static void alter(KafkaClients clients, Map<String, String> configs) {
    Properties p = clients.admin();
    p.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
    List<AlterConfigOp> ops = new ArrayList<>();
    configs.forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
    try (Admin admin = Admin.create(p)) {
      admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, NAME), ops)).all()
          .get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while configuring the share group " + NAME, e);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("cannot set the configs " + configs + " of the share group " + NAME
          + " on " + clients.bootstrap() + ": " + cause + " (an operator can set them with kafka-configs.sh --alter"
          + " --entity-type groups --entity-name " + NAME + " --add-config ...)", cause);
    }
  }
}
