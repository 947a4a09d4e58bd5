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
 * <p>Kafka's own dead-letter topic for share groups (KIP-1191, {@code
 * errors.deadletterqueue.topic.name}) is not used: the workers write {@code expresso.dead-letters}
 * themselves, with the reason, the message and the source of each failure, before the task is
 * rejected, and a poison task ends as a dead letter on its last delivery before the broker's limit,
 * so the broker never archives a task silently. The broker's DLQ records carry no reason and need a
 * {@code dlq.}-prefixed topic on a stock broker.
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
      default -> "asked for by the worker";
    };
  }

  /**
   * Sets the group configs of {@link #NAME} (idempotent; a group config may be set before the
   * group exists).
   *
   * @throws IllegalStateException saying which configs could not be set and why (e.g. no AlterConfigs right on the group)
   */
  public static void configure(KafkaClients clients, Settings settings) {
    Properties p = clients.admin();
    p.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
    List<AlterConfigOp> ops = new ArrayList<>();
    settings.configs().forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
    try (Admin admin = Admin.create(p)) {
      admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, NAME), ops)).all()
          .get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while configuring the share group " + NAME, e);
    } catch (Exception e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException("cannot set the configs " + settings.configs() + " of the share group " + NAME
          + " on " + clients.bootstrap() + ": " + cause + " (an operator can set them with kafka-configs.sh --alter"
          + " --entity-type groups --entity-name " + NAME + " --add-config ...)", e);
    }
  }
}
