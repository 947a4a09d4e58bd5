package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.GraphPair;
import io.expresso.wl.WlMethods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The streaming commands: usage errors, help, and the demo end to end (embedded broker). */
class RuntimeCommandsTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();


  @Test
  void everyStreamingCommandHasHelp() {
    for (List<String> cmd : List.of(List.of("broker"), List.of("worker"), List.of("publish"), List.of("publish", "brec"),
        List.of("publish", "synthetic"), List.of("results"), List.of("up"), List.of("demo"), List.of("bench"))) {
      String[] args = java.util.stream.Stream.concat(cmd.stream(), java.util.stream.Stream.of("--help")).toArray(String[]::new);
      assertThat(Main.execute(args)).as(String.join(" ", cmd)).isZero();
    }
    assertThat(console.out()).contains("expresso-workers").contains("--wait");
  }

  @Test
  void badDevicesIsBadUsageNamingThePart() {
    assertThat(Main.execute("worker", "--bootstrap", "127.0.0.1:1", "--devices", "tpu:0")).isEqualTo(2);
    assertThat(console.err()).startsWith("expresso: ").contains("'tpu:0' is not a device").doesNotContain("\n");
  }

  @Test
  void badCountsAndRangesAreBadUsage() {
    assertThat(Main.execute("publish", "synthetic", "--bootstrap", "127.0.0.1:1", "--experiment", "e", "--count", "0"))
        .isEqualTo(2);
    assertThat(console.err()).contains("--count 0");
    console.resetErr();
    assertThat(Main.execute("publish", "brec", "--bootstrap", "127.0.0.1:1", "--experiment", "e", "--suite", "builtin",
        "--model", "1-wl", "--seeds", "5-2")).isEqualTo(2);
    assertThat(console.err()).contains("--seeds '5-2' runs backwards");
    console.resetErr();
    assertThat(Main.execute("publish")).isEqualTo(2);
    assertThat(console.err()).contains("missing subcommand");
  }

  @Test
  void benchMeasuresAllThreePathsAndAccountsForTheirCpu() throws Exception {
    assertThat(Main.execute("bench", "--count", "300", "--warmup", "100", "--rounds", "1", "--rate", "5000", "--workers", "2",
        "--devices", "cpu:1", "--json"))
        .as("bench failed; stderr:%n%s", console.err()).isZero();
    JsonNode root = new ObjectMapper().readTree(console.out());
    JsonNode round = root.get("rounds").get(0);
    for (String path : List.of("raw", "relay", "runtime")) {
      JsonNode p = round.get(path);
      assertThat(p.get("tasks").asInt()).as(path).isEqualTo(300);
      assertThat(p.get("per_second").asDouble()).as(path).isPositive();
      assertThat(p.get("p99_ms").asDouble()).as(path).isGreaterThanOrEqualTo(p.get("p50_ms").asDouble());
      assertThat(p.get("cpu_us_per_task").asDouble()).as(path).isPositive();
      assertThat(p.get("cpu_us_per_task_by_stage").get("broker").asDouble()).as(path + " broker").isPositive();
    }
    // only the runtime runs its devices; the relay's loop stands in for the worker's stream
    assertThat(round.get("runtime").get("cpu_us_per_task_by_stage").get("worker devices").asDouble()).isPositive();
    assertThat(round.get("raw").get("cpu_us_per_task_by_stage").get("worker devices").asDouble()).isZero();
    assertThat(round.get("relay").get("cpu_us_per_task_by_stage").get("worker source + stream").asDouble()).isPositive();
    assertThat(root.get("rate").asInt()).isEqualTo(5000);
    assertThat(root.get("workers").asInt()).isEqualTo(2);
    assertThat(root.get("median_runtime_over_raw").asDouble())
        .isEqualTo(round.get("runtime_over_raw").asDouble());
  }

  @Test
  void benchRejectsOutOfRangeOptions() {
    assertThat(Main.execute("bench", "--rounds", "0")).isEqualTo(2);
    assertThat(console.err()).contains("--rounds 0 outside 1..20");
  }

  @Test
  void demoRunsTheBuiltinSuiteUnderOneAndThreeWlEndToEnd(@TempDir Path dir) throws Exception {
    assertThat(Main.execute("demo", "--out", dir.toString(), "--synthetic", "20", "--work-ms", "1", "--robustness", "off")).as("demo failed; stderr:%n%s", console.err()).isZero();
    String table = console.out();
    assertThat(table).contains("method 1-wl").contains("method 3-wl").contains("synthetic tasks: 20");
    JsonNode summary = new ObjectMapper().readTree(dir.resolve("demo.summary.json").toFile());
    int pairs = BuiltinSuite.generate().size();
    int categories = BuiltinSuite.generate().categories().size();
    // 1-WL and 3-WL on every pair, GIN on the first pair of each category, 20 synthetic
    assertThat(summary.get("unique_results").asInt()).isEqualTo(2 * pairs + categories + 20);
    assertThat(summary.get("errors").asInt()).isZero();
    int threeWl = 0;
    int gin = 0;
    int ginTasks = 0;
    for (JsonNode c : summary.get("categories")) {
      if (c.get("method").asText().equals("3-wl")) {
        threeWl += c.get("distinguished").asInt();
      }
      if (c.get("method").asText().startsWith("gin")) {
        gin += c.get("distinguished").asInt();
        ginTasks += c.get("tasks").asInt();
      }
    }
    assertThat(ginTasks).isEqualTo(categories);
    // every built-in pair is 1-WL-equivalent and GIN is at most as strong as 1-WL
    assertThat(gin).isZero();
    int expected = 0;
    for (GraphPair p : (Iterable<GraphPair>) BuiltinSuite.generate().pairs()::iterator) {
      expected += WlMethods.byName("3-wl").distinguishes(p.first(), p.second()) ? 1 : 0;
    }
    assertThat(threeWl).isEqualTo(expected);
    assertThat(Files.readAllLines(dir.resolve("demo.results.jsonl"))).hasSize(2 * pairs + categories + 20);
    assertThat(Files.readString(dir.resolve("demo.report.html"))).contains("<table>");
    assertThat(Files.readString(dir.resolve("demo.report.md"))).contains("| 3-wl |");
  }
}
