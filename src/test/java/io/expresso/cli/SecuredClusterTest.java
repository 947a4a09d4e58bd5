package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expresso against a cluster that wants credentials: the embedded broker with only a
 * SASL_PLAINTEXT listener (mechanism PLAIN). A publisher, a worker (its own process, configured
 * through {@value KafkaClients#CONFIG_ENV}) and the result reader, all given a client properties
 * file, run tasks end to end; a client without credentials or with a wrong password fails with
 * one clear line, soon.
 */
@Integration
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(240)
class SecuredClusterTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @TempDir Path dir;

  private EmbeddedBroker broker;

  @BeforeAll
  void startSecuredBroker() {
    Map<String, String> users = new LinkedHashMap<>();
    users.put("broker", "broker-secret");
    users.put("alice", "alice-secret");
    broker = EmbeddedBroker.startWithSaslPlain(0, null, users);
  }

  @AfterAll
  void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  /** A --kafka-config file for {@code user}, with the broker's address as bootstrap.servers. */
  private Path configFile(String name, String user, String password) throws IOException {
    Properties p = new Properties();
    p.putAll(EmbeddedBroker.saslPlainClientConfig(user, password));
    p.put("bootstrap.servers", broker.bootstrap());
    Path f = dir.resolve(name);
    try (Writer w = Files.newBufferedWriter(f)) {
      p.store(w, "SASL/PLAIN login of " + user);
    }
    return f;
  }

  @Test
  @Order(1)
  void publisherWorkerAndResultsRunTasksThroughTheConfigFile() throws Exception {
    Path alice = configFile("alice.properties", "alice", "alice-secret");
    String b = broker.bootstrap();

    // a fresh cluster has no topics: without --create-topics that is an error naming them and the flag
    assertThat(Main.execute("publish", "synthetic", "--bootstrap", b, "--kafka-config", alice.toString(),
        "--experiment", "sasl", "--count", "20")).as(console.err()).isEqualTo(1);
    assertThat(console.err()).startsWith("expresso: error: the Kafka cluster at " + b + " lacks the topics")
        .contains(Topics.RESULTS, Topics.TASKS, "--create-topics").doesNotContain("alice-secret");
    console.resetErr();

    assertThat(Main.execute("publish", "synthetic", "--bootstrap", b, "--kafka-config", alice.toString(),
        "--experiment", "sasl", "--count", "20", "--create-topics", "--partitions", "4", "--results-retention", "-1"))
        .as(console.err()).isZero();
    assertThat(console.out()).contains("published 20 synthetic tasks");
    try (Admin admin = Admin.create(broker.clients("alice").admin())) {
      for (String topic : List.of(Topics.RESULTS, Topics.DEAD_LETTERS)) {
        ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config c = admin.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
        assertThat(c.get(TopicConfig.RETENTION_MS_CONFIG).value()).as(topic + " kept forever").isEqualTo("-1");
      }
    }

    // the worker finds its cluster (bootstrap.servers included) through the environment variable alone
    List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator
        + "java", "-Xmx384m", "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"),
        "io.expresso.cli.Main", "worker", "--devices", "cpu:1", "--id", "sasl-worker", "--metrics-port", "0",
        "--stop-grace", "5s"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("worker.log").toFile());
    pb.environment().put(KafkaClients.CONFIG_ENV, alice.toString());
    Process worker = pb.start();
    try {
      assertThat(Main.execute("results", "--kafka-config", alice.toString(), "--experiment", "sasl", "--wait", "20",
          "--timeout", "150", "--json")).as("%s%nworker log:%n%s", console.err(), log()).isZero();
      String json = console.out().lines().filter(l -> l.startsWith("{")).reduce((a, z) -> z).orElseThrow();
      JsonNode summary = new ObjectMapper().readTree(json);
      assertThat(summary.get("unique_results").asInt()).isEqualTo(20);
      assertThat(summary.get("errors").asInt()).isZero();
    } finally {
      worker.destroy(); // SIGTERM: the worker drains and leaves
      if (!worker.waitFor(60, TimeUnit.SECONDS)) {
        worker.destroyForcibly();
      }
    }
    assertThat(log()).contains("worker sasl-worker: serving " + b).doesNotContain("alice-secret");
  }

  private String log() throws IOException {
    Path f = dir.resolve("worker.log");
    return Files.exists(f) ? Files.readString(f) : "";
  }

  @Test
  @Order(2)
  void aClientWithoutCredentialsFailsWithOneClearLineWithinTheBound() {
    console.resetErr();
    long t0 = System.nanoTime();
    int code = Main.execute("results", "--bootstrap", broker.bootstrap(), "--experiment", "sasl");
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(code).as(console.err()).isEqualTo(1);
    // a plaintext client is never told why: the broker just closes its connections
    assertThat(console.err()).startsWith("expresso: error: no answer from Kafka at " + broker.bootstrap()
        + " (security.protocol PLAINTEXT) within 30 s").contains("--kafka-config", KafkaClients.CONFIG_ENV)
        .doesNotContain("\n");
    assertThat(took).isLessThan(Duration.ofSeconds(60));
  }

  @Test
  @Order(3)
  void aWrongPasswordIsRefusedByName() throws Exception {
    Path wrong = configFile("wrong.properties", "alice", "not-her-password");
    console.resetErr();
    assertThat(Main.execute("publish", "synthetic", "--kafka-config", wrong.toString(), "--experiment", "sasl",
        "--count", "1")).as(console.err()).isEqualTo(1);
    String last = console.err().lines().reduce((a, z) -> z).orElse(""); // after the client's own log line
    assertThat(last).startsWith("expresso: error: Kafka at " + broker.bootstrap()
        + " (security.protocol SASL_PLAINTEXT, sasl.mechanism PLAIN) refused to authenticate")
        .contains("Invalid username or password");
    assertThat(console.err()).doesNotContain("not-her-password");
  }

  @Test
  @Order(4)
  void aWorkerHandsItsClusterToTheEvaluatorsThatKeepTheirOwnClients() {
    KafkaClients alice = broker.clients("alice");
    EvaluatorRegistry registry = EvaluatorRegistry.defaults();
    try (Worker w = Worker.start(Worker.Settings.of(alice, DeviceSlot.parse("cpu:1")).withStopGrace(
        Duration.ofSeconds(1)), registry, TaskObserver.NONE)) {
      assertThat(registry.kafka()).contains(alice); // the checkpoint store of train/attack tasks logs in as alice
    }
  }
}
