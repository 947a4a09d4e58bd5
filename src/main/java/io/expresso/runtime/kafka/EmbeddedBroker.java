package io.expresso.runtime.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.security.plain.PlainLoginModule;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Apache Kafka broker in KRaft mode (combined broker and controller), started
 * in-process on loopback. The log directory is given (and survives restarts) or temporary (deleted
 * on close). Tuned for one machine: replication factor 1, few internal partitions, quick abort
 * of transactions left open by a killed worker. Its one listener is plaintext, or SASL_PLAINTEXT
 * with the PLAIN mechanism ({@link #startWithSaslPlain}) to test clients of a secured cluster.
 */
public final class EmbeddedBroker implements AutoCloseable {

  /** Kafka's topic of share-group state (what each share partition has delivered and acknowledged). */
  private static final String SHARE_STATE_TOPIC = "__share_group_state";
  private static final int SHARE_STATE_PARTITIONS = 8;

  private final Path dir;
  private final boolean temporary;
  private final int port;
  private final int controllerPort;
  /** SASL/PLAIN users (name, password), the first also the broker's own login; empty: plaintext. */
  private final Map<String, String> saslUsers;
  private final String clusterId = Uuid.randomUuid().toString();
  private KafkaRaftServer server;

  private EmbeddedBroker(Path dir, boolean temporary, int port, int controllerPort, Map<String, String> saslUsers) {
    this.dir = dir;
    this.temporary = temporary;
    this.port = port;
    this.controllerPort = controllerPort;
    this.saslUsers = saslUsers;
  }

  /**
   * Starts a broker on {@code port} (0 = a free port) with its logs in {@code dir} ({@code null} =
   * a temporary directory), and returns once it accepts connections.
   */
  public static EmbeddedBroker start(int port, Path dir) {
    return start(port, dir, Map.of());
  }

  /**
   * Like {@link #start}, with a SASL_PLAINTEXT listener that lets in only the given users (name →
   * password; mechanism PLAIN, no authorizer). The first user is the broker's own login; clients
   * get their settings from {@link #clients(String)}.
   */
  public static EmbeddedBroker startWithSaslPlain(int port, Path dir, Map<String, String> users) {
    if (users.isEmpty()) {
      throw new IllegalArgumentException("a SASL listener needs at least one user");
    }
    return start(port, dir, new LinkedHashMap<>(users));
  }

  private static EmbeddedBroker start(int port, Path dir, Map<String, String> saslUsers) {
    try {
      boolean temporary = dir == null;
      Path d = temporary ? Files.createTempDirectory("expresso-kafka-") : dir.toAbsolutePath();
      Files.createDirectories(d);
      int[] free = freePorts(2, port);
      int p = port == 0 ? free[0] : port;
      EmbeddedBroker b = new EmbeddedBroker(d, temporary, p, free[1], saslUsers);
      b.startServer();
      return b;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the embedded Kafka broker: " + e.getMessage(), e);
    }
  }

  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  /** How clients reach this broker: plaintext, or as its first SASL user. */
  public KafkaClients clients() {
    return saslUsers.isEmpty() ? KafkaClients.of(bootstrap()) : clients(saslUsers.keySet().iterator().next());
  }

  /** How clients reach this SASL broker as {@code user}. */
  public KafkaClients clients(String user) {
    String password = saslUsers.get(user);
    if (password == null) {
      throw new IllegalArgumentException("no SASL user '" + user + "' on this broker");
    }
    return new KafkaClients(bootstrap(), saslPlainClientConfig(user, password));
  }

  /** The client properties of a SASL_PLAINTEXT/PLAIN login, as a --kafka-config file holds them. */
  public static Map<String, String> saslPlainClientConfig(String user, String password) {
    return Map.of(
        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
        SaslConfigs.SASL_MECHANISM, "PLAIN",
        SaslConfigs.SASL_JAAS_CONFIG, PlainLoginModule.class.getName() + " required username=" + jaasQuoted(user)
            + " password=" + jaasQuoted(password) + ";");
  }

  private static String jaasQuoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  public Path dir() {
    return dir;
  }

  /** Stops the broker, keeping its logs, and starts it again on the same ports (for fault tests). */
  public synchronized void restart() {
    stopServer();
    startServer();
  }

  /** Stops the broker and keeps its logs (then {@link #restart} or {@link #close}). */
  public synchronized void stop() {
    stopServer();
  }

  private synchronized void startServer() {
    String logs = dir.resolve("logs").toString();
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    String listener = saslUsers.isEmpty() ? "PLAINTEXT" : "SASL_PLAINTEXT";
    p.put("listeners", listener + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", listener + "://127.0.0.1:" + port);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", listener);
    p.put("listener.security.protocol.map", listener + ":" + listener + ",CONTROLLER:PLAINTEXT");
    if (!saslUsers.isEmpty()) {
      p.put("sasl.enabled.mechanisms", "PLAIN");
      p.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
      p.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", brokerJaas());
    }
    p.put("log.dirs", logs);
    p.put("auto.create.topics.enable", "false");
    p.put("num.partitions", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "8");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "8");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("group.min.session.timeout.ms", "1000");
    // A worker killed mid-transaction holds back read_committed readers until its transaction is
    // aborted: look for timed-out transactions every second instead of every ten.
    p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000");
    p.put("transaction.max.timeout.ms", "900000");
    p.put("log.cleaner.dedupe.buffer.size", "16777216");
    p.put("log.segment.bytes", "67108864");
    p.put("num.network.threads", "2");
    p.put("num.io.threads", "4");
    p.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
    // share groups (the task queue): their state topic on one node, and lock bounds wide enough
    // for tests to shorten a lock (group config share.record.lock.duration.ms) to a few seconds
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("share.coordinator.state.topic.num.partitions", String.valueOf(SHARE_STATE_PARTITIONS));
    p.put("group.share.min.record.lock.duration.ms", "1000");
    p.put("group.share.min.session.timeout.ms", "1000");
    p.put("group.share.min.heartbeat.interval.ms", "100");
    // a joining member gets its partitions at its second or third heartbeat's answer: within a
    // quarter of a second here, at the broker's least (10-15 s at Kafka's default of 5 s); a slot
    // growing its batch joins anew, and until it has, the demo's tiny tasks go one a round trip
    p.put("group.share.heartbeat.interval.ms", "100");
    // and the group's target assignment is recomputed at once when a member joins (Kafka's default:
    // at most once a second, so every consumer a slot opens waited up to a second for its partitions)
    p.put("group.share.min.assignment.interval.ms", "0");
    p.put("group.share.assignment.interval.ms", "0");
    p.put("group.share.max.delivery.count.limit", "10");
    try {
      KafkaConfig config = new KafkaConfig(p, false);
      if (!Files.exists(Path.of(logs, "meta.properties"))) {
        // a fresh directory: format it for this single-node cluster (a given --dir keeps its format)
        new Formatter()
            .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
            .setNodeId(1)
            .setClusterId(clusterId)
            .setControllerListenerName("CONTROLLER")
            .setMetadataLogDirectory(logs)
            .addDirectory(logs)
            .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
            .run();
      }
      server = new KafkaRaftServer(config, Time.SYSTEM);
      server.startup();
      awaitReady();
    } catch (Exception e) {
      stopServer();
      throw new IllegalStateException("cannot start the embedded Kafka broker on port " + port + ": " + e.getMessage(), e);
    }
  }

  /** The listener's JAAS config: the broker's own login, then {@code user_NAME="PASSWORD"} per user it accepts. */
  private String brokerJaas() {
    Map.Entry<String, String> self = saslUsers.entrySet().iterator().next();
    StringBuilder jaas = new StringBuilder(PlainLoginModule.class.getName()).append(" required username=")
        .append(jaasQuoted(self.getKey())).append(" password=").append(jaasQuoted(self.getValue()));
    saslUsers.forEach((user, password) -> jaas.append(" user_").append(user).append('=').append(jaasQuoted(password)));
    return jaas.append(';').toString();
  }

  private void awaitReady() throws Exception {
    Properties p = clients().admin();
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
    try (Admin admin = Admin.create(p)) {
      admin.describeCluster().nodes().get(60, TimeUnit.SECONDS);
      createShareStateTopic(admin);
    }
  }

  /**
   * Creates the share groups' state topic now, as the broker itself would on the first share
   * group's first member, with the same settings. Left to that member, it arrives while the group
   * initialises its partitions' state, one of those requests finds the share coordinator not yet
   * loaded and is retried seconds later: the first task of a fresh broker waited about 5 s.
   */
  private void createShareStateTopic(Admin admin) throws Exception {
    if (admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get(60, TimeUnit.SECONDS)
        .contains(SHARE_STATE_TOPIC)) {
      return;
    }
    NewTopic t = new NewTopic(SHARE_STATE_TOPIC, SHARE_STATE_PARTITIONS, (short) 1).configs(Map.of(
        "cleanup.policy", "delete", "retention.ms", "-1", "min.insync.replicas", "1",
        "segment.bytes", "104857600", "compression.type", "producer"));
    try {
      admin.createTopics(List.of(t)).all().get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
        throw e;
      }
    }
  }

  private synchronized void stopServer() {
    if (server != null) {
      KafkaRaftServer s = server;
      server = null;
      s.shutdown();
      s.awaitShutdown();
    }
  }

  @Override
  public synchronized void close() {
    stopServer();
    if (temporary) {
      deleteTree(dir);
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
    } catch (IOException e) {
      // a leftover temp dir is harmless
    }
  }

  /**
   * {@code n} distinct free ports, none equal to {@code taken}. The sockets stay open until all are
   * chosen: probed one after another, the kernel may hand out the same ephemeral port twice.
   */
  private static int[] freePorts(int n, int taken) throws IOException {
    List<ServerSocket> open = new ArrayList<>();
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; ) {
        ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        open.add(s);
        if (s.getLocalPort() != taken) {
          ports[i++] = s.getLocalPort();
        }
      }
      return ports;
    } finally {
      for (ServerSocket s : open) {
        s.close();
      }
    }
  }
}
