package io.expresso.runtime.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;

/**
 * What a Kafka cluster must offer the fleet's share group, read with the admin API, one finding a
 * line: share groups switched on ({@code share.version}), the share-state topic (or whether the
 * brokers can create it), the task topic, the brokers' dead-letter topic, the group's configs, the
 * member cap, and the rights of this client's principal. A worker logs the problems at start;
 * {@code expresso doctor --bootstrap B} prints every line.
 */
public final class ClusterCheck {

  /** Kafka's topic of share-group state, created by the brokers at the first share group's first use. */
  public static final String SHARE_STATE_TOPIC = "__share_group_state";

  /** The broker setting that decides the share-state topic's replication (3 by default). */
  public static final String STATE_REPLICATION = "share.coordinator.state.topic.replication.factor";

  /**
   * One line of the check.
   *
   * @param ok whether the cluster has what this line is about
   * @param blocking whether, without it, no worker is ever handed a task
   */
  public record Finding(boolean ok, boolean blocking, String line) {
    static Finding ok(String line) {
      return new Finding(true, false, line);
    }

    static Finding lacks(String line) {
      return new Finding(false, false, line);
    }

    static Finding blocks(String line) {
      return new Finding(false, true, line);
    }

    @Override
    public String toString() {
      return (ok ? "ok    " : blocking ? "FATAL " : "LACKS ") + line;
    }
  }

  private ClusterCheck() {}

  /** Checks the cluster of {@code clients} for the share group configured as {@code wanted}. */
  public static List<Finding> run(KafkaClients clients, ShareGroup.Settings wanted) {
    Properties p = clients.admin();
    p.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    List<Finding> out = new ArrayList<>();
    try (Admin admin = Admin.create(p)) {
      Collection<Node> nodes = get(admin.describeCluster().nodes());
      out.add(Finding.ok(nodes.size() + " broker(s) at " + clients.bootstrap()));
      short share = shareVersion(admin, out);
      Config broker = brokerConfig(admin, nodes, out);
      stateTopic(admin, nodes.size(), broker, out);
      taskTopic(admin, out);
      brokerDeadLetters(admin, share, out);
      groupConfigs(admin, wanted, out);
      if (broker != null) {
        ConfigEntry max = broker.get("group.share.max.size");
        if (max != null && max.value() != null) {
          out.add(Finding.ok("group.share.max.size=" + max.value() + ": at most " + max.value() + " share consumers in the"
              + " group: a worker has one per device slot, so a fleet of more slots needs it raised (broker setting, up to"
              + " 1000)"));
        }
      }
    } catch (Exception e) {
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      out.add(Finding.blocks("cannot check the cluster at " + clients.describe() + ": " + cause));
    }
    return out;
  }

  /** The findings that are problems, blocking ones first. */
  public static List<Finding> problems(List<Finding> findings) {
    return findings.stream().filter(f -> !f.ok()).sorted((a, b) -> Boolean.compare(b.blocking(), a.blocking())).toList();
  }

  /** Finds whether share groups are on; returns the feature level (0 when off). */
  private static short shareVersion(Admin admin, List<Finding> out) throws Exception {
    Map<String, FinalizedVersionRange> features = get(admin.describeFeatures().featureMetadata()).finalizedFeatures();
    FinalizedVersionRange share = features.get("share.version");
    if (share == null || share.maxVersionLevel() < 1) {
      out.add(Finding.blocks("share groups are off: feature share.version is " + (share == null ? "unset" : "0")
          + " (kafka-features.sh --bootstrap-server B upgrade --feature share.version=1; brokers 4.2 or newer)"));
      return 0;
    }
    out.add(Finding.ok("share groups on: feature share.version=" + share.maxVersionLevel()));
    return share.maxVersionLevel();
  }

  /**
   * The brokers' dead-letter topic of the share group (KIP-1191): without it, a task whose last
   * delivery reaches no worker is archived without a result (see {@link ShareGroup}).
   */
  private static void brokerDeadLetters(Admin admin, short shareVersion, List<Finding> out) throws Exception {
    String t = Topics.BROKER_DEAD_LETTERS;
    String risk = ": a task whose last delivery reaches no worker would be archived by the brokers without a result";
    if (shareVersion >= 1 && shareVersion < 2) {
      out.add(Finding.lacks("share.version=" + shareVersion + " has no share-group dead-letter topic (2 has, Kafka 4.4:"
          + " kafka-features.sh --bootstrap-server B upgrade --feature share.version=2)" + risk));
    }
    if (!get(admin.listTopics().names()).contains(t)) {
      out.add(Finding.lacks(t + " does not exist (publish --create-topics creates it, or kafka-topics.sh --create --topic "
          + t + " --config " + Topics.DLQ_TOPIC_ENABLE + "=true)" + risk));
      return;
    }
    ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, t);
    ConfigEntry enabled = get(admin.describeConfigs(List.of(topic)).all()).get(topic).get(Topics.DLQ_TOPIC_ENABLE);
    if (enabled == null || !"true".equals(enabled.value())) {
      out.add(Finding.lacks(t + ": " + Topics.DLQ_TOPIC_ENABLE + " is " + (enabled == null ? "unset" : enabled.value())
          + ", wanted true (kafka-configs.sh --bootstrap-server B --alter --entity-type topics --entity-name " + t
          + " --add-config " + Topics.DLQ_TOPIC_ENABLE + "=true)" + risk));
    } else {
      out.add(Finding.ok(t + ": the brokers write a task they give up on there, and a worker writes its error result"));
    }
  }

  /** One broker's config (every broker of a cluster normally shares these settings); null if it may not be read. */
  private static Config brokerConfig(Admin admin, Collection<Node> nodes, List<Finding> out) {
    ConfigResource r = new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(nodes.iterator().next().id()));
    try {
      return get(admin.describeConfigs(List.of(r)).all()).get(r);
    } catch (Exception e) {
      out.add(Finding.lacks("cannot read the brokers' config (DescribeConfigs on the cluster): " + cause(e)
          + "; the share-state topic's replication is not checked"));
      return null;
    }
  }

  private static void stateTopic(Admin admin, int brokers, Config broker, List<Finding> out) throws Exception {
    Set<String> names = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names());
    String rf = broker == null || broker.get(STATE_REPLICATION) == null ? null : broker.get(STATE_REPLICATION).value();
    if (names.contains(SHARE_STATE_TOPIC)) {
      TopicDescription d = get(admin.describeTopics(List.of(SHARE_STATE_TOPIC)).allTopicNames()).get(SHARE_STATE_TOPIC);
      long leaderless = d.partitions().stream().filter(i -> i.leader() == null || i.leader().isEmpty()).count();
      int replicas = d.partitions().get(0).replicas().size();
      if (leaderless > 0) {
        out.add(Finding.blocks(SHARE_STATE_TOPIC + ": " + leaderless + " of " + d.partitions().size()
            + " partitions have no leader (brokers down?): share partitions kept there hand out nothing"));
      } else {
        out.add(Finding.ok(SHARE_STATE_TOPIC + ": " + d.partitions().size() + " partitions, " + replicas + " replica(s)"));
      }
      return;
    }
    if (rf != null && Integer.parseInt(rf) > brokers) {
      out.add(Finding.blocks(SHARE_STATE_TOPIC + " does not exist and the brokers cannot create it: " + STATE_REPLICATION
          + "=" + rf + " on a cluster of " + brokers + " broker(s) (INVALID_REPLICATION_FACTOR in the broker's log), so"
          + " no worker is ever handed a task; set " + STATE_REPLICATION + " and share.coordinator.state.topic.min.isr to at"
          + " most " + brokers + " in every broker's config and restart them"));
    } else {
      out.add(Finding.ok(SHARE_STATE_TOPIC + " not created yet: the brokers create it at the first share group's use"
          + (rf == null ? "" : " (" + STATE_REPLICATION + "=" + rf + ")")));
    }
  }

  private static void taskTopic(Admin admin, List<Finding> out) throws Exception {
    Set<String> names = get(admin.listTopics().names());
    if (!names.contains(Topics.TASKS)) {
      out.add(Finding.lacks(Topics.TASKS + " does not exist (publish --create-topics creates every expresso topic)"));
      return;
    }
    TopicDescription d = get(admin.describeTopics(List.of(Topics.TASKS), new DescribeTopicsOptions()
        .includeAuthorizedOperations(true)).allTopicNames()).get(Topics.TASKS);
    int n = d.partitions().size();
    out.add(Finding.ok(Topics.TASKS + ": " + n + " partition(s), " + d.partitions().get(0).replicas().size() + " replica(s)"
        + (n == 1 ? ": every worker serves every task" : ": Kafka's share assignor gives each partition ceil(workers / "
            + n + ") workers; keep it at most the fleet's worker count")));
    rights(Topics.TASKS, d.authorizedOperations(), Set.of(AclOperation.READ, AclOperation.DESCRIBE), out);
    for (String t : List.of(Topics.RESULTS, Topics.DEAD_LETTERS)) {
      if (names.contains(t)) {
        TopicDescription r = get(admin.describeTopics(List.of(t), new DescribeTopicsOptions()
            .includeAuthorizedOperations(true)).allTopicNames()).get(t);
        rights(t, r.authorizedOperations(), Set.of(AclOperation.WRITE, AclOperation.DESCRIBE), out);
      } else {
        out.add(Finding.lacks(t + " does not exist (publish --create-topics creates every expresso topic)"));
      }
    }
  }

  private static void rights(String topic, Set<AclOperation> granted, Set<AclOperation> needed, List<Finding> out) {
    if (granted == null || granted.contains(AclOperation.ALL)) {
      return; // no authorizer, or every right
    }
    List<AclOperation> missing = needed.stream().filter(o -> !granted.contains(o)).sorted().toList();
    if (!missing.isEmpty()) {
      out.add(Finding.lacks("this principal lacks " + missing + " on topic " + topic));
    }
  }

  private static void groupConfigs(Admin admin, ShareGroup.Settings wanted, List<Finding> out) throws Exception {
    ConfigResource g = new ConfigResource(ConfigResource.Type.GROUP, ShareGroup.NAME);
    Config c;
    try {
      c = get(admin.describeConfigs(List.of(g)).all()).get(g);
    } catch (Exception e) {
      out.add(Finding.lacks("cannot read the configs of group " + ShareGroup.NAME + " (DescribeConfigs on the group): "
          + cause(e)));
      return;
    }
    for (Map.Entry<String, String> w : wanted.configs().entrySet()) {
      ConfigEntry e = c.get(w.getKey());
      String value = e == null ? null : e.value();
      if (w.getValue().equals(value)) {
        out.add(Finding.ok("group " + ShareGroup.NAME + ": " + w.getKey() + "=" + value));
      } else {
        out.add(Finding.lacks("group " + ShareGroup.NAME + ": " + w.getKey() + " is " + value + ", wanted " + w.getValue()
            + " (" + ShareGroup.why(w.getKey()) + "; kafka-configs.sh --alter --entity-type groups --entity-name "
            + ShareGroup.NAME + " --add-config " + w.getKey() + "=" + w.getValue() + ")"));
      }
    }
  }

  private static <T> T get(org.apache.kafka.common.KafkaFuture<T> f) throws Exception {
    return f.get(30, TimeUnit.SECONDS);
  }

  private static String cause(Exception e) {
    Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    return c.getClass().getSimpleName() + ": " + c.getMessage();
  }
}
