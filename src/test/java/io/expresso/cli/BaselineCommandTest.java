package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BaselineCommandTest {

  @TempDir Path dir;
  private Path pairsFile;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  /** Three pairs: decalin/bicyclopentyl, hexagon/two triangles, and a graph with a relabelling. */
  @BeforeEach
  void writeSuite() throws Exception {
    Graph decalin = Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 5, 6, 6, 7, 7, 8, 8, 9, 9, 4);
    Graph bicyclopentyl = Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 5, 6, 6, 7, 7, 8, 8, 9, 9, 5, 0, 5);
    Graph hexagon = Graph.fromEdges(6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0);
    Graph triangles = Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3);
    Graph path = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3);
    List<String> lines = new ArrayList<>();
    for (Graph g : new Graph[] {decalin, bicyclopentyl, hexagon, triangles, path, path.relabel(new int[] {2, 0, 3, 1})}) {
      lines.add(Graph6.encode(g));
    }
    pairsFile = dir.resolve("tiny.g6");
    Files.write(pairsFile, lines);
  }

  private int run(String... args) {
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args);
  }

  @Test
  void printsAPerCategoryTableWithATotal() {
    assertThat(run("baseline", "--method", "3-wl", "--suite", "pairs:" + pairsFile)).isZero();
    String text = out.toString();
    assertThat(text).contains("method 3-wl");
    assertThat(text).containsPattern("tiny\\s+3\\s+2\\s+66\\.7%");
    assertThat(text).containsPattern("total\\s+3\\s+2\\s+66\\.7%");
    assertThat(text).contains("refinement time");
  }

  @Test
  void jsonHasExactlyTheAgreedKeys() throws Exception {
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--json")).isZero();
    JsonNode root = new ObjectMapper().readTree(out.toString());
    List<String> keys = new ArrayList<>();
    root.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("method", "suite", "categories", "total", "elapsed_seconds");
    assertThat(root.get("method").asText()).isEqualTo("1-wl");
    assertThat(root.get("suite").asText()).isEqualTo("pairs:" + pairsFile);
    JsonNode category = root.get("categories").get(0);
    List<String> categoryKeys = new ArrayList<>();
    category.fieldNames().forEachRemaining(categoryKeys::add);
    assertThat(categoryKeys).containsExactly("name", "pairs", "distinguished");
    assertThat(category.get("name").asText()).isEqualTo("tiny");
    assertThat(category.get("pairs").asInt()).isEqualTo(3);
    assertThat(category.get("distinguished").asInt()).isZero(); // all three pairs are 1-WL-equivalent
    List<String> totalKeys = new ArrayList<>();
    root.get("total").fieldNames().forEachRemaining(totalKeys::add);
    assertThat(totalKeys).containsExactly("pairs", "distinguished");
    assertThat(root.get("elapsed_seconds").isNumber()).isTrue();
    assertThat(root.get("elapsed_seconds").asDouble()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void brecExcerptEndToEndKeepsCategoriesInSuiteOrder() throws Exception {
    Path npy = SharedData.require("data/brec-excerpt/brec_excerpt.npy");
    String spec = "brec:" + npy + "#indices=0,60,110,160";
    assertThat(run("baseline", "--method", "3-wl", "--suite", spec, "--json")).isZero();
    JsonNode root = new ObjectMapper().readTree(out.toString());
    assertThat(root.get("suite").asText()).isEqualTo(spec);
    List<String> names = new ArrayList<>();
    List<String> counts = new ArrayList<>();
    for (JsonNode c : root.get("categories")) {
      names.add(c.get("name").asText());
      counts.add(c.get("distinguished").asInt() + "/" + c.get("pairs").asInt());
    }
    assertThat(names).containsExactly("Basic", "Regular", "Extension");
    assertThat(counts).containsExactly("1/1", "1/2", "1/1"); // pair 110 (srg(16,6,2,2)) defeats 3-WL
    assertThat(root.get("total").get("distinguished").asInt()).isEqualTo(3);
  }

  @Test
  void pairsOptionRestrictsByIndex() throws Exception {
    assertThat(run("baseline", "--method", "s3", "--suite", "pairs:" + pairsFile, "--pairs", "1-2", "--json")).isZero();
    JsonNode total = new ObjectMapper().readTree(out.toString()).get("total");
    assertThat(total.get("pairs").asInt()).isEqualTo(2);
    assertThat(total.get("distinguished").asInt()).isEqualTo(1); // triangles yes, the relabelled path no
  }

  @Test
  void pairsOptionTakesAListOfRangesAndIndices() throws Exception {
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "0,2", "--json")).isZero();
    assertThat(new ObjectMapper().readTree(out.toString()).get("total").get("pairs").asInt()).isEqualTo(2);
    out.getBuffer().setLength(0);
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "0-1, 2", "--json")).isZero();
    assertThat(new ObjectMapper().readTree(out.toString()).get("total").get("pairs").asInt()).isEqualTo(3);
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "0,,2")).isEqualTo(2);
    assertThat(err.toString()).contains("--pairs '0,,2' has an empty item");
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "0,x")).isEqualTo(2);
    assertThat(err.toString()).contains("--pairs 'x' is not a range");
  }

  @Test
  void unknownMethodIsAUsageErrorListingTheValidNames() {
    assertThat(run("baseline", "--method", "5-wl", "--suite", "pairs:" + pairsFile)).isEqualTo(2);
    assertThat(err.toString()).contains("unknown method '5-wl'").contains("1-wl, 3-wl, 4-wl, spd-wl, s3, s4, n1, n2, m1");
    assertThat(err.toString().lines().count()).isEqualTo(1);
  }

  @Test
  void badSpecsAndRangesAreUsageErrors() {
    assertThat(run("baseline", "--method", "1-wl", "--suite", "nonsense")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown suite spec 'nonsense'");
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "3-1")).isEqualTo(2);
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "a-b")).isEqualTo(2);
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + pairsFile, "--pairs", "7-9")).isEqualTo(2);
    assertThat(err.toString()).contains("selects no pair");
    assertThat(run("baseline", "--suite", "pairs:" + pairsFile)).isEqualTo(2);
  }

  @Test
  void missingOrMalformedFilesAreFailures() throws Exception {
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + dir.resolve("absent.g6"))).isEqualTo(1);
    assertThat(err.toString()).contains("absent.g6").contains("not found");
    Path odd = dir.resolve("odd.g6");
    Files.writeString(odd, "C~\nCr\nC~\n");
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + odd)).isEqualTo(1);
    assertThat(err.toString()).contains("odd number");
    // An empty pairs file used to give an empty table and exit 0.
    Path empty = Files.createFile(dir.resolve("empty.g6"));
    assertThat(run("baseline", "--method", "1-wl", "--suite", "pairs:" + empty)).isEqualTo(1);
    assertThat(err.toString()).contains("empty.g6: the file is empty");
  }

  @Test
  void aMethodThatRefusesAPairNamesIt() throws Exception {
    Path big = dir.resolve("big.g6");
    Graph cycle = Graph.fromEdges(41, cycleEdges(41));
    Files.write(big, List.of(Graph6.encode(cycle), Graph6.encode(cycle)));
    assertThat(run("baseline", "--method", "4-wl", "--suite", "pairs:" + big)).isEqualTo(1);
    assertThat(err.toString()).contains("pair 0 (big)").contains("at most 40 vertices");
  }

  private static int[] cycleEdges(int n) {
    int[] e = new int[2 * n];
    for (int i = 0; i < n; i++) {
      e[2 * i] = i;
      e[2 * i + 1] = (i + 1) % n;
    }
    return e;
  }
}
