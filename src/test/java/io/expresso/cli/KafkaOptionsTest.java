package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.runtime.kafka.KafkaClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The Kafka and topic options of the commands that talk to an existing cluster; nothing here connects. */
class KafkaOptionsTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @Test
  void everyCommandOnAnExistingClusterTakesAClientConfigFile() {
    for (List<String> cmd : List.of(List.of("worker"), List.of("publish", "brec"), List.of("publish", "synthetic"),
        List.of("publish", "train"), List.of("publish", "attack"), List.of("results"), List.of("watch"),
        List.of("experiment", "robustness"), List.of("states", "export"), List.of("states", "import"))) {
      int before = console.out().length();
      String[] args = Stream.concat(cmd.stream(), Stream.of("--help")).toArray(String[]::new);
      assertThat(Main.execute(args)).as(String.join(" ", cmd)).isZero();
      String help = console.out().substring(before);
      assertThat(help).as(String.join(" ", cmd)).contains("--kafka-config=FILE", KafkaClients.CONFIG_ENV);
      // topics are created only by commands that write to them, and only when asked
      boolean writes = !cmd.get(0).equals("results") && !cmd.get(0).equals("watch")
          && !cmd.equals(List.of("states", "export"));
      assertThat(help.contains("--create-topics")).as(String.join(" ", cmd)).isEqualTo(writes);
      if (writes) {
        assertThat(help).contains("--replication-factor=N", "--results-retention=T");
      }
    }
  }

  @Test
  void withoutAClusterAddressItIsBadUsage() {
    assertThat(Main.execute("worker", "--devices", "cpu:1")).isEqualTo(2);
    assertThat(console.err()).startsWith("expresso: missing --bootstrap B").doesNotContain("\n");
  }

  @Test
  void anUnreadableOrInvalidConfigFileIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
    assertThat(Main.execute("results", "--bootstrap", "127.0.0.1:1", "--kafka-config", dir.resolve("none").toString(),
        "--experiment", "e")).isEqualTo(1);
    assertThat(console.err()).startsWith("expresso: error: cannot read --kafka-config " + dir.resolve("none"));
    console.resetErr();
    Path bad = dir.resolve("bad.properties");
    Files.writeString(bad, "sasl.mechanism=PLAIN\nsecurity.protocol=TLS\n");
    assertThat(Main.execute("publish", "synthetic", "--bootstrap", "127.0.0.1:1", "--kafka-config", bad.toString(),
        "--experiment", "e", "--count", "1")).isEqualTo(1);
    assertThat(console.err()).startsWith("expresso: error: --kafka-config " + bad)
        .contains("Invalid value TLS for configuration security.protocol").doesNotContain("\n");
  }

  @Test
  void badTopicSettingsAreBadUsage() {
    assertThat(Main.execute("publish", "synthetic", "--bootstrap", "127.0.0.1:1", "--experiment", "e", "--count", "1",
        "--create-topics", "--replication-factor", "0")).isEqualTo(2);
    assertThat(console.err()).contains("--replication-factor 0 outside 1..");
    console.resetErr();
    assertThat(Main.execute("worker", "--bootstrap", "127.0.0.1:1", "--results-retention", "a week")).isEqualTo(2);
    assertThat(console.err()).contains("--results-retention 'a week' is not -1 (forever) or a duration like 30d");
    console.resetErr();
    assertThat(Main.execute("up", "--results-retention", "0d")).isEqualTo(2);
    assertThat(console.err()).contains("must be positive, or -1 for forever");
  }

  @Test
  void retentionIsForeverOrAPositiveDuration() {
    CommandLine.Model.CommandSpec spec = new CommandLine(new TopicOptionsHolder()).getCommandSpec();
    assertThat(TopicOptions.retentionMs(spec, "-1")).isEqualTo(-1);
    assertThat(TopicOptions.retentionMs(spec, "forever")).isEqualTo(-1);
    assertThat(TopicOptions.retentionMs(spec, "30d")).isEqualTo(30L * 24 * 3600 * 1000);
    assertThat(TopicOptions.retentionMs(spec, "12h")).isEqualTo(12L * 3600 * 1000);
    assertThat(TopicOptions.retentionMs(spec, "500ms")).isEqualTo(500);
    assertThatThrownBy(() -> TopicOptions.retentionMs(spec, "-5d")).isInstanceOf(CommandLine.ParameterException.class);
  }

  @CommandLine.Command(name = "holder")
  static final class TopicOptionsHolder {
    @CommandLine.Mixin TopicOptions topics = new TopicOptions();
  }
}
