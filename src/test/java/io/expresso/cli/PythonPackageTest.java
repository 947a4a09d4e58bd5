package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.metrics.ExternalTools;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BrecPaperResults;
import io.expresso.suite.BrecVariant;
import io.expresso.testing.BrokerAndWorker;
import io.expresso.testing.Integration;
import io.expresso.testing.SharedData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The Python package (python/) as its users run it: built and installed with pip, so its message
 * classes are generated from protos/ as the Java ones are, then its test suite
 * (python/tests/test_expresso.py) against two real clusters: a plaintext broker whose worker runs
 * user modules, and a SASL/PLAIN broker whose worker refuses them; then examples/python/evaluate_gin.py.
 * What the Python side counted must equal what {@code expresso results --json} prints for the same
 * experiments.
 *
 * <p>Needs Debian's python3 with python3-confluent-kafka, python3-protobuf, python3-numpy,
 * python3-torch, python3-pandas, python3-pip, python3-setuptools, python3-wheel and
 * protobuf-compiler (scripts/test-tools); a missing one fails the test with the package names.
 */
@Integration
@Timeout(600)
class PythonPackageTest {

  @RegisterExtension static final BrokerAndWorker CLUSTER = new BrokerAndWorker("cpu:1", true);

  private static final String PACKAGES = "python3-confluent-kafka python3-protobuf python3-numpy python3-torch"
      + " python3-pandas python3-pip python3-setuptools python3-wheel";
  private static final String EXCERPT_INDICES = "0,60,110,160";
  /** The Python tests' output, kept: each test's name, outcome and seconds. */
  private static final Path LOG = Path.of("target", "python-package-test.log");

  /** A python3 with every module the package and its tests import, Debian's where another comes first on PATH. */
  private static Path python() throws Exception {
    ExternalTools.require("protoc", "protobuf-compiler");
    return ExternalTools.python3("confluent_kafka, google.protobuf, numpy, torch, pandas, setuptools, wheel, pip",
        PACKAGES);
  }

  /** The elements of a JSON array as text, sorted: the array compared regardless of its order. */
  private static List<String> sortedText(JsonNode array) {
    List<String> out = new java.util.ArrayList<>();
    array.forEach(e -> out.add(e.toString()));
    java.util.Collections.sort(out);
    return out;
  }

  /** {@code expresso results --json} for one experiment, in this process. */
  private static JsonNode javaSummary(String bootstrap, String experiment) throws Exception {
    StringWriter out = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute("results", "--bootstrap", bootstrap, "--experiment", experiment, "--json")).isZero();
    return new ObjectMapper().readTree(out.toString());
  }

  @Test
  void thePackageEvaluatesAModelEndToEndAndCountsAsTheResultsCommand(@TempDir Path dir) throws Exception {
    Path python = python();
    Path site = dir.resolve("site");
    // installed as a user would, offline: setuptools and wheel from Debian, protoc run by the build
    ExternalTools.Run install = ExternalTools.run(List.of(python.toString(), "-m", "pip", "install", "--quiet",
        "--no-build-isolation", "--no-deps", "--no-index", "--target", site.toString(), "./python"), null, 180);
    assertThat(install.exitCode()).as(install.output()).isZero();
    assertThat(site.resolve("expresso/v1/tasks_pb2.py")).as("generated from protos/ at build time").exists();
    assertThat(site.resolve("expresso/v1/results_pb2.py")).exists();
    assertThat(site.resolve("expresso/brec-table2.csv")).as("BREC's Table 2, the Java resource, copied at build time")
        .hasSameTextualContentAs(Path.of("src/main/resources/io/expresso/suite/" + BrecPaperResults.TABLE));
    assertThat(site.resolve("expresso/" + BrecPaperResults.LEADERBOARD_MODELS)).as("the leaderboard's default models")
        .hasSameTextualContentAs(Path.of("src/main/resources/io/expresso/suite/" + BrecPaperResults.LEADERBOARD_MODELS));

    String excerpt = SharedData.require("data/brec-excerpt/brec_excerpt.npy").toString();
    // an experiment published from Java, for the package to read back
    assertThat(Main.execute("publish", "brec", "--bootstrap", CLUSTER.bootstrap(), "--experiment", "java-3wl",
        "--model", "3-wl", "--suite", "brec:" + excerpt + "#indices=" + EXCERPT_INDICES)).isZero();
    assertThat(Main.execute("results", "--bootstrap", CLUSTER.bootstrap(), "--experiment", "java-3wl", "--wait", "4",
        "--timeout", "120")).isZero();

    Map<String, String> users = new LinkedHashMap<>();
    users.put("broker", "broker-secret");
    users.put("alice", "alice-secret");
    Path out = Files.createDirectories(dir.resolve("out"));
    try (EmbeddedBroker secured = EmbeddedBroker.startWithSaslPlain(0, null, users)) {
      Topics.create(secured.clients("alice"), Topics.Creation.singleNode(2, 1));
      Worker refusing = Worker.start(Worker.Settings.of(secured.clients("alice"), DeviceSlot.parse("cpu:1")),
          EvaluatorRegistry.defaults(), TaskObserver.NONE); // no --allow-user-models
      try {
        Properties p = new Properties();
        p.putAll(EmbeddedBroker.saslPlainClientConfig("alice", "alice-secret"));
        Path config = dir.resolve("alice.properties");
        try (Writer w = Files.newBufferedWriter(config)) {
          p.store(w, "SASL/PLAIN login of alice");
        }
        ProcessBuilder pb = new ProcessBuilder(python.toString(), "-m", "unittest", "discover", "-s", "python/tests",
            "-v").redirectErrorStream(true).redirectOutput(LOG.toFile());
        Map<String, String> env = pb.environment();
        env.put("PYTHONPATH", site.toString());
        env.put("EXPRESSO_BOOTSTRAP", CLUSTER.bootstrap());
        env.put("EXPRESSO_SECURED_BOOTSTRAP", secured.bootstrap());
        env.put("EXPRESSO_SECURED_CONFIG", config.toString());
        env.put("EXPRESSO_EXCERPT", excerpt);
        env.put("EXPRESSO_OUT", out.toString());
        env.remove("EXPRESSO_KAFKA_CONFIG");
        Process proc = pb.start();
        boolean done = proc.waitFor(480, java.util.concurrent.TimeUnit.SECONDS);
        if (!done) {
          proc.descendants().forEach(ProcessHandle::destroyForcibly);
          proc.destroyForcibly();
        }
        String log = Files.readString(LOG);
        assertThat(done).as("the Python tests finished within 480 s:\n" + log).isTrue();
        assertThat(proc.exitValue()).as(log).isZero();
        assertThat(log).containsPattern("Ran 21 tests in [0-9.]+s\\s+OK\\s*$").doesNotContain("skipped");
      } finally {
        refusing.close();
      }
    }

    // the tables the Python side reads: BREC's Table 2 and the leaderboard's default models (from the shared
    // files) and the categories of BREC's files (a copy of its own)
    ExternalTools.Run tables = ExternalTools.run(List.of("env", "PYTHONPATH=" + site, python.toString(), "-c",
        "import json, expresso.summary as s, expresso.suite as v, expresso.client as c;"
            + " print(json.dumps([s.PAPER, v.VARIANTS, c.DEFAULT_MODELS]))"), null, 60);
    assertThat(tables.exitCode()).as(tables.output()).isZero();
    JsonNode copies = new ObjectMapper().readTree(tables.output());
    Map<String, List<Integer>> paper = new LinkedHashMap<>();
    BrecPaperResults.rows().forEach(r -> paper.put(r.model(), List.of(r.basic(), r.regular(), r.extension(), r.cfi())));
    assertThat(new ObjectMapper().convertValue(copies.get(0), Map.class)).isEqualTo(paper);
    Map<String, List<List<Object>>> variants = new LinkedHashMap<>();
    BrecVariant.ALL.forEach(v -> variants.put(v.name(), v.ranges().stream()
        .map(r -> List.<Object>of(r.name(), r.to() - r.from())).toList()));
    assertThat(new ObjectMapper().convertValue(copies.get(1), Map.class)).isEqualTo(variants);
    assertThat(new ObjectMapper().convertValue(copies.get(2), List.class)).as("client.leaderboard()'s default models,"
        + " experiment brec's").isEqualTo(BrecPaperResults.leaderboardModels());

    // the example users start from: make_gin.py's GIN on the excerpt, its table printed, its rows as CSV
    ExternalTools.Run example = ExternalTools.run(List.of("env", "PYTHONPATH=" + site, python.toString(),
        "examples/python/evaluate_gin.py", "--bootstrap", CLUSTER.bootstrap(), "--suite", excerpt, "--indices",
        EXCERPT_INDICES, "--seeds", "0-0", "--epochs", "1", "--experiment", "example-gin", "--csv",
        out.resolve("pairs.csv").toString()), null, 240);
    assertThat(example.exitCode()).as(example.output()).isZero();
    assertThat(example.output()).contains("experiment example-gin: 4 unique results, 0 errors", "seed 0; counts")
        .containsPattern("total\\s+4\\s+0\\s+0\\.0")
        .contains("wrote " + out.resolve("pairs.csv") + " (4 pair results)");
    assertThat(Files.readAllLines(out.resolve("pairs.csv"))).hasSize(5).first().asString().startsWith("task_id,suite");

    ObjectMapper json = new ObjectMapper();
    for (String experiment : List.of("py-gin", "py-3wl", "py-pairs", "py-retry", "py-failed", "java-3wl")) {
      JsonNode pythonSummary = json.readTree(out.resolve(experiment + ".json").toFile());
      assertThat(pythonSummary).as(experiment + ": Python's summary, Java's `results --json`")
          .isEqualTo(javaSummary(CLUSTER.bootstrap(), experiment));
    }
    // several configurations (client.leaderboard): each reader lists them in the order it first read their
    // results, which the results topic's partitions leave open, so they are compared by method
    JsonNode pyBoard = json.readTree(out.resolve("py-leaderboard.json").toFile());
    JsonNode javaBoard = javaSummary(CLUSTER.bootstrap(), "py-leaderboard");
    assertThat(sortedText(pyBoard.get("leaderboard"))).as("py-leaderboard: the leaderboard")
        .isEqualTo(sortedText(javaBoard.get("leaderboard"))).hasSize(3);
    assertThat(sortedText(pyBoard.get("categories"))).isEqualTo(sortedText(javaBoard.get("categories")));
    for (String field : List.of("unique_results", "errors", "duplicates_in_report", "experiment")) {
      assertThat(pyBoard.get(field)).as("py-leaderboard: " + field).isEqualTo(javaBoard.get(field));
    }
    // the DataFrame the user sees: its counts per category are Java's best-seed counts
    JsonNode java = javaSummary(CLUSTER.bootstrap(), "py-gin").get("leaderboard").get(0);
    JsonNode frame = json.readTree(out.resolve("py-gin.table.json").toFile());
    Map<String, List<Integer>> javaRows = new LinkedHashMap<>();
    java.get("categories").forEach(c -> javaRows.put(c.get("name").asText(),
        List.of(c.get("pairs").asInt(), c.get("reliably_distinguished").asInt(), c.get("errors").asInt())));
    Map<String, List<Integer>> frameRows = new LinkedHashMap<>();
    frame.forEach(c -> frameRows.put(c.get("category").asText(),
        List.of(c.get("pairs").asInt(), c.get("reliably_distinguished").asInt(), c.get("errors").asInt())));
    assertThat(frameRows).isEqualTo(javaRows).containsEntry("total", List.of(4, 0, 0));
    assertThat(frame.get(0).get("paper").isNull()).isTrue();
    assertThat(java.get("best_seed").asLong()).isEqualTo(json.readTree(out.resolve("py-gin.json").toFile())
        .get("leaderboard").get(0).get("best_seed").asLong());
  }
}
