package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where client settings come from, and what every client gets from them. */
class KafkaClientsTest {

  @TempDir Path dir;

  private static final Map<String, String> NO_ENV = Map.of();

  private Path file(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  @Test
  void everyClientKindStartsFromTheBootstrapAndTheFile() throws Exception {
    Path f = file("c.properties", """
        security.protocol=SASL_SSL
        sasl.mechanism=SCRAM-SHA-512
        sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p w ";
        ssl.truststore.location=/etc/kafka/ca.p12
        """);
    KafkaClients c = KafkaClients.resolve("k1:9093,k2:9093", f, NO_ENV::get);
    for (Properties p : List.of(c.consumer(), c.producer(), c.admin())) {
      assertThat(p).containsEntry("bootstrap.servers", "k1:9093,k2:9093").containsEntry("security.protocol", "SASL_SSL")
          .containsEntry("sasl.mechanism", "SCRAM-SHA-512").containsEntry("ssl.truststore.location", "/etc/kafka/ca.p12");
      // kept as written: trailing blanks in a password are the password's
      assertThat((String) p.get("sasl.jaas.config")).endsWith("password=\"p w \";");
    }
    // each call is a fresh copy: one client's own settings never leak into another's
    c.consumer().put("isolation.level", "read_committed");
    assertThat(c.consumer()).doesNotContainKey("isolation.level");
    assertThat(c.describe()).isEqualTo("k1:9093,k2:9093 (security.protocol SASL_SSL, sasl.mechanism SCRAM-SHA-512)");
    assertThat(c.toString()).contains("sasl.jaas.config").doesNotContain("password");
  }

  @Test
  void theEnvironmentVariableNamesTheFileAndTheFileMayNameTheCluster() throws Exception {
    Path f = file("env.properties", "bootstrap.servers=kafka:9092\nsecurity.protocol=SSL\n");
    KafkaClients fromEnv = KafkaClients.resolve(null, null, Map.of(KafkaClients.CONFIG_ENV, f.toString())::get);
    assertThat(fromEnv.bootstrap()).isEqualTo("kafka:9092");
    assertThat(fromEnv.extra()).containsEntry("security.protocol", "SSL").doesNotContainKey("bootstrap.servers");
    // --bootstrap wins over the file's, and --kafka-config over the environment
    Path other = file("other.properties", "security.protocol=SASL_PLAINTEXT\n");
    KafkaClients both = KafkaClients.resolve("b:1", other, Map.of(KafkaClients.CONFIG_ENV, f.toString())::get);
    assertThat(both.bootstrap()).isEqualTo("b:1");
    assertThat(both.extra()).containsEntry("security.protocol", "SASL_PLAINTEXT");
    assertThat(KafkaClients.resolve("b:1", null, NO_ENV::get)).isEqualTo(KafkaClients.of("b:1"));
  }

  @Test
  void badConfigurationIsAnErrorNamingTheFileAndTheKey() throws Exception {
    assertThatThrownBy(() -> KafkaClients.resolve(null, null, NO_ENV::get))
        .hasMessageContaining("missing --bootstrap");
    Path noCluster = file("nocluster.properties", "security.protocol=SSL\n");
    assertThatThrownBy(() -> KafkaClients.resolve(null, noCluster, NO_ENV::get))
        .hasMessageContaining("bootstrap.servers");
    Path typo = file("typo.properties", "security.protocol=SASL_PLAIN\n");
    assertThatThrownBy(() -> KafkaClients.resolve("b:1", typo, NO_ENV::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--kafka-config " + typo).hasMessageContaining("security.protocol")
        .hasMessageContaining("SASL_PLAIN");
    assertThatThrownBy(() -> KafkaClients.resolve("b:1", null, Map.of(KafkaClients.CONFIG_ENV, "/no/such/file")::get))
        .hasMessageContaining("cannot read " + KafkaClients.CONFIG_ENV + "=/no/such/file");
  }

  @Test
  void createdTopicsKeepResultsAndDeadLettersAsLongAsAsked() {
    Map<String, NewTopic> byName = new java.util.HashMap<>();
    new Topics.Creation(12, 2, Topics.CLUSTER_DEFAULT_REPLICATION, Topics.KEEP_FOREVER).topics()
        .forEach(t -> byName.put(t.name(), t));
    assertThat(byName).containsOnlyKeys(Topics.ALL);
    assertThat(byName.get(Topics.RESULTS).configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "-1");
    assertThat(byName.get(Topics.DEAD_LETTERS).configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "-1");
    assertThat(byName.get(Topics.RESULTS).replicationFactor()).as("the cluster's default").isEqualTo((short) -1);
    assertThat(byName.get(Topics.RESULTS).numPartitions()).isEqualTo(12);
    assertThat(byName.get(Topics.TASKS).numPartitions()).as("the task topic's own count").isEqualTo(2);

    Topics.Creation thirtyDays = new Topics.Creation(4, 1, (short) 3, 30L * 24 * 3600 * 1000);
    NewTopic results = thirtyDays.topics().stream().filter(t -> t.name().equals(Topics.RESULTS)).findFirst().orElseThrow();
    assertThat(results.replicationFactor()).isEqualTo((short) 3);
    assertThat(results.configs()).containsEntry(TopicConfig.RETENTION_MS_CONFIG, "2592000000");
    assertThatThrownBy(() -> new Topics.Creation(4, 1, (short) 0, -1)).hasMessageContaining("replication factor");
    assertThatThrownBy(() -> new Topics.Creation(4, 1, (short) 1, 0)).hasMessageContaining("retention");
    assertThatThrownBy(() -> new Topics.Creation(4, 0, (short) 1, -1)).hasMessageContaining("task topic");
  }
}
