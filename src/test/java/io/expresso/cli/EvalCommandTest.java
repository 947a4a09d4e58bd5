package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.testing.SharedData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class EvalCommandTest {

  @TempDir Path dir;
  private Path pairsFile;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Three pairs: decalin/bicyclopentyl, hexagon/two triangles (both 1-WL-equivalent), an isomorphic pair. */
  @BeforeEach
  void writeSuite() throws Exception {
    Graph decalin = Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 5, 6, 6, 7, 7, 8, 8, 9, 9, 4);
    Graph bicyclopentyl = Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 5, 6, 6, 7, 7, 8, 8, 9, 9, 5, 0, 5);
    Graph hexagon = Graph.fromEdges(6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0);
    Graph triangles = Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3);
    Graph path = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 1, 4);
    List<String> lines = new ArrayList<>();
    for (Graph g : new Graph[] {decalin, bicyclopentyl, hexagon, triangles, path, path.relabel(new int[] {2, 0, 3, 1, 4})}) {
      lines.add(Graph6.encode(g));
    }
    pairsFile = dir.resolve("tiny.g6");
    Files.write(pairsFile, lines);
  }

  private int runs;

  /** Runs a command; eval streams to a fresh results file in the test's directory unless told where. */
  private int run(String... args) {
    if (args.length > 0 && args[0].equals("eval") && !List.of(args).contains("--results")) {
      List<String> a = new ArrayList<>(List.of(args));
      a.add("--results");
      a.add(dir.resolve("results-" + (runs++) + ".jsonl").toString());
      args = a.toArray(new String[0]);
    }
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  private static List<String> keys(JsonNode n) {
    List<String> ks = new ArrayList<>();
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      ks.add(it.next());
    }
    return ks;
  }

  @Test
  void jsonHasExactlyTheIssueFieldsAndPpgnSeparatesThreeWlPairs() throws Exception {
    // BREC's PPGN at its size: a tiny one embeds these small graphs exactly, without rounding noise,
    // and BREC's T² of differences with zero covariance is 0 (pinv of the zero matrix), not a separation.
    assertThat(run("eval", "--model", "ppgn", "--suite", "pairs:" + pairsFile, "--epochs", "2",
        "--seed", "3", "--json")).isZero();
    JsonNode root = new ObjectMapper().readTree(out.toString());
    assertThat(keys(root)).containsExactly("model", "device", "precision", "threads", "pairs_at_once", "suite", "seed", "convention", "schedule",
        "categories", "total", "elapsed_seconds", "seconds_per_pair", "peak_rss_bytes", "pairs");
    assertThat(root.get("schedule").asText()).isEqualTo("plateau:factor=0.1,patience=10,min-lr=0.0"); // PyTorch's, as BREC's
    assertThat(root.get("model").asText()).isEqualTo("ppgn");
    assertThat(root.get("device").asText() + " " + root.get("precision").asText()).isEqualTo("cpu fp32");
    assertThat(root.get("threads").asInt()).isPositive(); // the engine's intra-op threads (every core when it loads here)
    assertThat(root.get("seed").asLong()).isEqualTo(3);
    assertThat(root.get("convention").asText()).isEqualTo("brec");
    assertThat(keys(root.get("categories").get(0))).containsExactly("name", "pairs", "distinguished", "reliability_failures", "errors");
    assertThat(keys(root.get("total"))).containsExactly("pairs", "distinguished", "reliability_failures", "errors");
    JsonNode pairs = root.get("pairs");
    assertThat(pairs).hasSize(3);
    assertThat(keys(pairs.get(0))).containsExactly("index", "category", "t2_test", "t2_reliability", "distinguished",
        "reliable", "epochs", "final_loss", "seconds", "peak_rss_bytes", "training_graphs_per_pass");
    assertThat(pairs.get(0).get("distinguished").asBoolean()).isTrue();
    assertThat(pairs.get(1).get("distinguished").asBoolean()).isTrue();
    assertThat(pairs.get(2).get("distinguished").asBoolean()).as("an isomorphic pair").isFalse();
    assertThat(root.get("total").get("distinguished").asInt()).isEqualTo(2);
    assertThat(root.get("total").get("reliability_failures").asInt()).isZero();
    assertThat(root.get("total").get("errors").asInt()).isZero();
    assertThat(err.toString()).contains("3/3"); // the progress bar went to stderr
  }

  @Test
  void pairsJudgedSideBySideGiveTheSameBitsAsOneAfterAnother() throws Exception {
    // PPGN trains long enough on these pairs for any difference in arithmetic to show in T²;
    // two seeds make six jobs, so the three threads each judge more than one
    Path npy = SharedData.require("data/brec-excerpt/brec_excerpt.npy");
    String[] base = {"eval", "--model", "ppgn", "--suite", "brec:" + npy + "#indices=0,60,110,160", "--pairs", "0,60,110",
        "--seeds", "0-1", "--json"};
    List<String> one = new ArrayList<>(List.of(base));
    one.addAll(List.of("--pairs-at-once", "1"));
    assertThat(run(one.toArray(new String[0]))).as(err::toString).isZero();
    JsonNode alone = new ObjectMapper().readTree(out.toString());
    out.getBuffer().setLength(0);
    List<String> three = new ArrayList<>(List.of(base));
    three.addAll(List.of("--pairs-at-once", "3"));
    assertThat(run(three.toArray(new String[0]))).isZero();
    JsonNode beside = new ObjectMapper().readTree(out.toString());
    assertThat(alone.get("pairs_at_once").asInt()).isEqualTo(1);
    assertThat(beside.get("pairs_at_once").asInt()).isEqualTo(3);
    assertThat(beside.get("pairs")).hasSize(3);
    for (int i = 0; i < 3; i++) {
      JsonNode a = alone.get("pairs").get(i);
      JsonNode b = beside.get("pairs").get(i);
      assertThat(b.get("index")).isEqualTo(a.get("index")); // the suite's order, whatever order they ended in
      assertThat(b.get("t2_test").asDouble()).isEqualTo(a.get("t2_test").asDouble());
      assertThat(b.get("t2_reliability").asDouble()).isEqualTo(a.get("t2_reliability").asDouble());
      assertThat(b.get("epochs")).isEqualTo(a.get("epochs"));
    }
    assertThat(beside.get("seeds")).isEqualTo(alone.get("seeds"));
    // every job's line reached the results file (three pairs, two seeds, after the configuration)
    assertThat(Files.readAllLines(dir.resolve("results-1.jsonl"))).hasSize(7);

    assertThat(run("eval", "--model", "gin", "--suite", "builtin", "--pairs-at-once", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--pairs-at-once must be 1 to 1024, got 0");
  }

  @Test
  void ginDistinguishesNoOneWlEquivalentPairAndTableShowsCounts() {
    assertThat(run("eval", "--model", "gin:layers=2,hidden=8", "--suite", "pairs:" + pairsFile, "--epochs", "2")).isZero();
    assertThat(out.toString()).containsPattern("total\\s+3\\s+0\\s+0\\s+0")
        .containsPattern("elapsed [0-9.]+ s in this run, [0-9]+ pairs? at once, [0-9.]+ s of it per pair judged here;"
            + " [0-9.]+ s per judged pair on its own clock \\(3 pairs");
  }

  @Test
  void ppgnOnTheBrecExcerptDistinguishes0_60_160But110() throws Exception {
    Path npy = SharedData.require("data/brec-excerpt/brec_excerpt.npy");
    assertThat(run("eval", "--model", "ppgn", "--suite", "brec:" + npy + "#indices=0,60,110,160", "--json")).isZero();
    JsonNode pairs = new ObjectMapper().readTree(out.toString()).get("pairs");
    List<Integer> distinguished = new ArrayList<>();
    for (JsonNode p : pairs) {
      assertThat(p.get("reliable").asBoolean()).isTrue();
      if (p.get("distinguished").asBoolean()) {
        distinguished.add(p.get("index").asInt());
      }
    }
    assertThat(distinguished).containsExactly(0, 60, 160);
  }

  @Test
  void badUsageExitsTwoWithOneClearLine() {
    assertThat(run("eval", "--model", "transformer", "--suite", "builtin")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown model 'transformer'");
    assertThat(run("eval", "--model", "gin", "--suite", "builtin", "--device", "tpu")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown device 'tpu'");
    assertThat(run("eval", "--model", "gin", "--suite", "builtin", "--seed", "1", "--seeds", "1-3")).isEqualTo(2);
    assertThat(run("eval", "--model", "gin", "--suite", "builtin", "--batch-size", "7")).isEqualTo(2);
    assertThat(err.toString()).contains("batch size must be even");
    assertThat(run("eval", "--help")).isZero();
    assertThat(out.toString()).contains("--threshold").contains("--convention");
  }

  @Test
  void multiSeedRunsReportEverySeed() throws Exception {
    String results = dir.resolve("seeds.jsonl").toString();
    assertThat(run("eval", "--model", "gin:layers=1,hidden=4", "--suite", "pairs:" + pairsFile, "--pairs", "0",
        "--epochs", "1", "--seeds", "1-2", "--json", "--results", results)).isZero();
    JsonNode root = new ObjectMapper().readTree(out.toString());
    assertThat(root.get("seeds")).hasSize(2);
    assertThat(root.get("configuration_counts").asBoolean()).isTrue();
    // the table of the same (resumed) run: every seed, and BREC's verdict as `expresso results` words it
    out.getBuffer().setLength(0);
    assertThat(run("eval", "--model", "gin:layers=1,hidden=4", "--suite", "pairs:" + pairsFile, "--pairs", "0",
        "--epochs", "1", "--seeds", "1-2", "--results", results)).isZero();
    assertThat(out.toString()).containsPattern("(?m)^1\\s+\\d+\\s+0\\s+0\\s*$").containsPattern("(?m)^2\\s+\\d+\\s+0\\s+0\\s*$")
        .contains("2 seeds (1..2), best seed " + root.get("seed").asLong() + " by BREC's rule; counts");
  }

  @Test
  void resultsStreamToAFileAndTheSameCommandResumesWhereItStopped() throws Exception {
    Path results = dir.resolve("stream.jsonl");
    String[] first = {"eval", "--model", "gin:layers=1,hidden=4", "--suite", "pairs:" + pairsFile, "--epochs", "1",
        "--pairs", "0-1", "--results", results.toString(), "--pairs-at-once", "1"}; // lines in the suite's order
    assertThat(run(first)).isZero();
    List<String> lines = Files.readAllLines(results);
    assertThat(lines).hasSize(3); // the configuration, then one line per judged pair
    assertThat(new ObjectMapper().readTree(lines.get(0)).get("config").get("model").asText()).startsWith("gin:layers=1");
    JsonNode pair0 = new ObjectMapper().readTree(lines.get(1));
    assertThat(pair0.get("index").asInt()).isZero();
    assertThat(pair0.get("peak_rss_bytes").asLong()).isPositive();

    // a kill while writing pair 1's line leaves half a line: it is dropped and pair 1 judged again
    Files.writeString(results, lines.get(0) + "\n" + lines.get(1) + "\n" + lines.get(2).substring(0, 20));
    err.getBuffer().setLength(0);
    String[] more = first.clone();
    more[8] = "0-2";
    assertThat(run(more)).as(err::toString).isZero();
    assertThat(err.toString()).contains("1 pair results already there are kept")
        .contains("2 judged, 1 resumed, 0 errors"); // the progress bar's last state
    List<String> after = Files.readAllLines(results);
    assertThat(after).hasSize(4);
    assertThat(after.subList(0, 2)).isEqualTo(lines.subList(0, 2));
    assertThat(after.stream().skip(1).map(l -> l.replaceAll(".*\"index\":(\\d+).*", "$1"))).containsExactly("0", "1", "2");
    assertThat(out.toString()).containsPattern("total\\s+3\\s+0");

    // another configuration never appends to this file
    String[] other = more.clone();
    other[2] = "gin:layers=2,hidden=4";
    assertThat(run(other)).isEqualTo(2);
    assertThat(err.toString()).contains("holds results of another configuration")
        .contains("model: \"gin:layers=1,").contains("in the file, \"gin:layers=2,").contains("--no-resume");
    assertThat(Files.readAllLines(results)).hasSize(4);
  }

  @Test
  void withoutThresholdEachModelIsJudgedAtItsBrecScriptsAndTheFlagOverridesIt() throws Exception {
    // DropGNN's script judges at T² 5; --threshold rpc restores 72.34, a bad value is one line naming it
    String[] dropGnn = {"eval", "--model", "dropgnn:layers=2,hidden=8", "--suite", "pairs:" + pairsFile, "--epochs", "1",
        "--pairs", "1", "--results", dir.resolve("dropgnn.jsonl").toString()};
    assertThat(run(dropGnn)).as(err::toString).isZero();
    List<String> lines = Files.readAllLines(dir.resolve("dropgnn.jsonl"));
    assertThat(new ObjectMapper().readTree(lines.get(0)).get("config").get("threshold").asText()).isEqualTo("5");
    assertThat(new ObjectMapper().readTree(lines.get(1)).get("threshold").asDouble()).isEqualTo(5.0);
    String[] rpc = {"eval", "--model", "dropgnn:layers=2,hidden=8", "--suite", "pairs:" + pairsFile, "--epochs", "1",
        "--pairs", "1", "--threshold", "rpc", "--results", dir.resolve("dropgnn-rpc.jsonl").toString()};
    assertThat(run(rpc)).as(err::toString).isZero();
    lines = Files.readAllLines(dir.resolve("dropgnn-rpc.jsonl"));
    assertThat(new ObjectMapper().readTree(lines.get(0)).get("config").get("threshold").asText()).isEqualTo("rpc");
    assertThat(new ObjectMapper().readTree(lines.get(1)).get("threshold").asDouble()).isCloseTo(72.34, within(0.01));
    assertThat(run("eval", "--model", "gin", "--suite", "builtin", "--threshold", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("a given T² threshold must be a positive number, got 0.0");
  }

  @Test
  void onBrecTheTableStandsBesideThePapersRowInItsGrouping() {
    Path npy = SharedData.require("data/brec-excerpt/brec_excerpt.npy");
    assertThat(run("eval", "--model", "gin:layers=1,hidden=4", "--epochs", "1", "--suite",
        "brec:" + npy + "#indices=0,60,110,160")).isZero();
    // the comparison `expresso results` prints (report/BrecComparison): ours, ours %, the paper's count of its size, %
    assertThat(out.toString()).contains("paper: 1-WL bound", "seed 0; ")
        // pairs 60 and 110 fall in the paper's 140-pair Regular
        .containsPattern("Regular \\(paper grouping\\)\\s+2\\s+0\\s+0\\.0\\s+0/140\\s+0\\.0")
        .containsPattern("total\\s+4\\s+0\\s+0\\.0\\s+0/400");
    out.getBuffer().setLength(0);
    assertThat(run("eval", "--model", "gin:layers=1,hidden=4", "--epochs", "1", "--suite", "pairs:" + pairsFile)).isZero();
    assertThat(out.toString()).doesNotContain("paper");
  }
}
