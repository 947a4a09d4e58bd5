package io.expresso.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A stock Apache Kafka cluster of several nodes on loopback, each node its own process started
 * with Kafka's own main class ({@code kafka.Kafka}) from this project's classpath, in KRaft mode
 * (every node broker and controller, a static quorum of all of them). Stock settings apart from
 * ports, directories, replication (3, or the node count if fewer) and min ISR (2): no plugin, no
 * shortened timeouts, the share-group state topic at its defaults. Nodes can be killed (SIGKILL)
 * and started again on the same ports and logs.
 *
 * <p>{@code main}: starts a cluster and prints {@code ready <bootstrap>} until killed (for
 * measurements by hand: {@code java -cp <test classpath> io.expresso.testing.KafkaCluster 3 DIR}).
 */
public final class KafkaCluster implements AutoCloseable {

  /** Kafka's topic of share-group state. */
  public static final String SHARE_STATE_TOPIC = "__share_group_state";

  private final Path dir;
  private final int[] ports;
  private final int[] controllerPorts;
  private final Process[] nodes;
  private final Map<String, String> extra;

  private KafkaCluster(Path dir, int size, Map<String, String> extra) throws IOException {
    this.dir = dir;
    this.extra = extra;
    this.ports = new int[size];
    this.controllerPorts = new int[size];
    this.nodes = new Process[size];
    for (int i = 0; i < size; i++) {
      ports[i] = freePort();
      controllerPorts[i] = freePort();
    }
  }

  /** Formats and starts {@code size} nodes with their logs under {@code dir}; returns once all are up. */
  public static KafkaCluster start(int size, Path dir) throws Exception {
    return start(size, dir, Map.of());
  }

  /** {@link #start(int, Path)} with {@code extra} broker settings on every node (a test of one setting). */
  public static KafkaCluster start(int size, Path dir, Map<String, String> extra) throws Exception {
    KafkaCluster c = new KafkaCluster(dir, size, extra);
    String clusterId = Uuid.randomUuid().toString();
    for (int i = 0; i < size; i++) {
      c.writeConfig(i);
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(i + 1)
          .setClusterId(clusterId)
          .setControllerListenerName("CONTROLLER")
          .setMetadataLogDirectory(c.logs(i).toString())
          .addDirectory(c.logs(i).toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .run();
    }
    try {
      for (int i = 0; i < size; i++) {
        c.launch(i);
      }
      c.awaitNodes(size, Duration.ofSeconds(120));
    } catch (Exception e) {
      c.close();
      throw e;
    }
    return c;
  }

  public String bootstrap() {
    List<String> hosts = new ArrayList<>();
    for (int p : ports) {
      hosts.add("127.0.0.1:" + p);
    }
    return String.join(",", hosts);
  }

  public int size() {
    return nodes.length;
  }

  /** The node whose id is {@code id} (1-based, as Kafka numbers them): killed with SIGKILL, its logs kept. */
  public void kill(int id) throws InterruptedException {
    Process p = nodes[id - 1];
    if (p != null) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Starts node {@code id} again on its ports and logs; returns once it answers on its own listener
   * (the cluster may still list a node killed moments ago, so asking the cluster is not enough).
   */
  public void restart(int id) throws Exception {
    launch(id - 1);
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    try (Admin own = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + ports[id - 1],
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
      while (true) {
        if (!nodes[id - 1].isAlive()) {
          throw new IllegalStateException("Kafka node " + id + " exited on restart; its log: " + log(id));
        }
        try {
          own.describeCluster().nodes().get(10, TimeUnit.SECONDS);
          break;
        } catch (Exception e) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("Kafka node " + id + " did not answer within 120 s of its restart", e);
          }
          Thread.sleep(200);
        }
      }
    }
    awaitNodes(nodes.length, Duration.ofSeconds(120));
  }

  public boolean alive(int id) {
    return nodes[id - 1] != null && nodes[id - 1].isAlive();
  }

  /** The leader of partition {@code partition} of {@code topic} (a node id), or -1 when it has none. */
  public int leaderOf(String topic, int partition) throws Exception {
    try (Admin admin = admin()) {
      TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
      Node leader = d.partitions().get(partition).leader();
      return leader == null || leader.isEmpty() ? -1 : leader.id();
    }
  }

  /**
   * The partition of {@code __share_group_state} that holds the state of share partition {@code
   * topic}/{@code partition} of {@code group}: its leader is that share partition's share
   * coordinator. Kafka places the key {@code group:topicId:partition} by its string hash.
   */
  public int shareStatePartition(String group, String topic, int partition) throws Exception {
    // the share-state topic is made when the first share group needs it: on a loaded machine its
    // metadata can reach the broker asked after the workers already serve, so ask again for a while
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try (Admin admin = admin()) {
      while (true) {
        try {
          Map<String, TopicDescription> d = admin.describeTopics(List.of(topic, SHARE_STATE_TOPIC)).allTopicNames()
              .get(30, TimeUnit.SECONDS);
          String key = group + ":" + d.get(topic).topicId() + ":" + partition;
          return Utils.abs(key.hashCode()) % d.get(SHARE_STATE_TOPIC).partitions().size();
        } catch (java.util.concurrent.ExecutionException e) {
          if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
              || System.nanoTime() > deadline) {
            throw e;
          }
          Thread.sleep(250);
        }
      }
    }
  }

  /** Waits until every partition of every topic (internal ones too) has all its replicas in sync. */
  public void awaitFullIsr(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (Admin admin = admin()) {
      while (true) {
        List<String> lagging = new ArrayList<>();
        try {
          var names = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names()
              .get(10, TimeUnit.SECONDS);
          admin.describeTopics(names).allTopicNames().get(10, TimeUnit.SECONDS).values().forEach(t ->
              t.partitions().stream().filter(pi -> pi.isr().size() < pi.replicas().size())
                  .forEach(pi -> lagging.add(t.name() + "-" + pi.partition())));
        } catch (Exception e) {
          lagging.add(e.toString());
        }
        if (lagging.isEmpty()) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("replicas still out of sync after " + timeout.toSeconds() + " s: " + lagging);
        }
        Thread.sleep(200);
      }
    }
  }

  public Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
  }

  public Path log(int id) {
    return dir.resolve("node-" + id + ".out");
  }

  private Path logs(int i) {
    return dir.resolve("node-" + (i + 1));
  }

  private Path config(int i) {
    return dir.resolve("node-" + (i + 1) + ".properties");
  }

  /** Stock settings but for where it listens and keeps its logs, replication and min ISR. */
  private void writeConfig(int i) throws IOException {
    String voters = "";
    for (int j = 0; j < nodes.length; j++) {
      voters += (j == 0 ? "" : ",") + (j + 1) + "@127.0.0.1:" + controllerPorts[j];
    }
    int replicas = Math.min(3, nodes.length);
    int minIsr = Math.min(2, replicas);
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", String.valueOf(i + 1));
    p.put("controller.quorum.voters", voters);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + ports[i] + ",CONTROLLER://127.0.0.1:" + controllerPorts[i]);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + ports[i]);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("log.dirs", logs(i).toString());
    p.put("default.replication.factor", String.valueOf(replicas));
    p.put("min.insync.replicas", String.valueOf(minIsr));
    p.put("offsets.topic.replication.factor", String.valueOf(replicas));
    p.put("transaction.state.log.replication.factor", String.valueOf(replicas));
    p.put("transaction.state.log.min.isr", String.valueOf(minIsr));
    p.put("share.coordinator.state.topic.replication.factor", String.valueOf(replicas));
    p.put("share.coordinator.state.topic.min.isr", String.valueOf(minIsr));
    p.putAll(extra);
    Files.createDirectories(logs(i));
    try (Writer w = Files.newBufferedWriter(config(i))) {
      p.store(w, "node " + (i + 1) + " of a stock " + nodes.length + "-node cluster");
    }
  }

  private void launch(int i) throws IOException {
    List<String> cmd = List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        // the JIT's first tier only: a test's nodes start in half the time and carry little load
        "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        // the share partitions' warnings (a last delivery, a dead letter) in the node's log; Kafka's others stay off
        "-Dorg.slf4j.simpleLogger.log.kafka.server.share=warn", "-cp", System.getProperty("java.class.path"), "kafka.Kafka", config(i).toString());
    nodes[i] = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log(i + 1).toFile())).start();
  }

  private void awaitNodes(int count, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception last = null;
    try (Admin admin = admin()) {
      while (System.nanoTime() < deadline) {
        for (int i = 0; i < nodes.length; i++) {
          if (nodes[i] != null && !nodes[i].isAlive()) {
            throw new IllegalStateException("Kafka node " + (i + 1) + " exited (" + nodes[i].exitValue() + "); its log: "
                + log(i + 1));
          }
        }
        try {
          if (admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size() >= count) {
            return;
          }
        } catch (Exception e) {
          last = e;
        }
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("the cluster at " + bootstrap() + " did not show " + count + " nodes within "
        + timeout.toSeconds() + " s" + (last == null ? "" : ": " + last));
  }

  @Override
  public void close() {
    for (Process p : nodes) {
      if (p != null) {
        p.destroyForcibly();
      }
    }
    for (Process p : nodes) {
      if (p != null) {
        try {
          p.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  public static void main(String[] args) throws Exception {
    int size = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("expresso-cluster-");
    KafkaCluster c = start(size, dir);
    Runtime.getRuntime().addShutdownHook(new Thread(c::close));
    System.out.println("ready " + c.bootstrap() + " (logs " + dir + "; pids "
        + java.util.Arrays.stream(c.nodes).map(p -> String.valueOf(p.pid())).collect(Collectors.joining(",")) + ")");
    System.out.flush();
    Thread.currentThread().join();
  }
}
