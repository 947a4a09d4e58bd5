package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.graph.LabeledGraph;
import io.expresso.graph.TuDataset;
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

/**
 * {@code expresso audit} on a handcrafted TU dataset with known orbits (written as TU text files):
 *
 * <pre>
 * id  graph                       node labels  target
 * 1   triangle                    0 0 0        0
 * 2   path 1-2-3 (middle 2)       1 2 1        0
 * 3   triangle                    0 0 0        1     orbit {1,3}: conflicting labels
 * 4   path 5-4-6 (middle 4)       1 2 2        0     same partition shape as 2, values swapped
 * 5   star, centre 10             0 0 0 0      1     trivial orbit
 * 6   path 11-13-12 (middle 13)   1 1 2        0     like 2 with node labels
 * </pre>
 *
 * Unlabelled: orbits {1,3} and {2,4,6}. With node labels: {1,3} and {2,6}.
 */
class AuditCommandTest {

  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeEach
  void writeDataset() throws Exception {
    Files.writeString(dir.resolve("TOY_A.txt"), String.join("\n",
        "1, 2", "2, 3", "1, 3", // graph 1: vertices 1-3
        "4, 5", "5, 6", // graph 2: vertices 4-6
        "7, 8", "8, 9", "9, 7", // graph 3: vertices 7-9
        "11, 10", "10, 12", // graph 4: vertices 10-12, middle 10
        "13, 14", "13, 15", "13, 16", // graph 5: star, vertices 13-16
        "17, 19", "19, 18") + "\n"); // graph 6: vertices 17-19, middle 19
    Files.writeString(dir.resolve("TOY_graph_indicator.txt"),
        "1\n1\n1\n2\n2\n2\n3\n3\n3\n4\n4\n4\n5\n5\n5\n5\n6\n6\n6\n");
    Files.writeString(dir.resolve("TOY_node_labels.txt"),
        "0\n0\n0\n1\n2\n1\n0\n0\n0\n1\n2\n2\n0\n0\n0\n0\n1\n1\n2\n");
    Files.writeString(dir.resolve("TOY_graph_labels.txt"), "0\n0\n1\n0\n1\n0\n");
  }

  private int run(String... args) {
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  private JsonNode json(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("audit", "--tu", dir.toString(), "--name", "TOY", "--json"));
    all.addAll(List.of(args));
    assertThat(run(all.toArray(String[]::new))).as(err.toString()).isZero();
    return new ObjectMapper().readTree(out.toString());
  }

  @Test
  void unlabelledAuditJsonHasExactlyTheSpecifiedKeysAndValues() throws Exception {
    JsonNode j = json();
    List<String> keys = new ArrayList<>();
    for (Iterator<String> it = j.fieldNames(); it.hasNext(); ) {
      keys.add(it.next());
    }
    assertThat(keys).containsExactly("graphs", "orbits", "isomorphic_graphs", "isomorphic_graph_pct",
        "isomorphic_pair_pct", "mismatched_pct", "orbit_members");
    assertThat(j.get("graphs").asInt()).isEqualTo(6);
    assertThat(j.get("orbits").asInt()).isEqualTo(2);
    assertThat(j.get("isomorphic_graphs").asInt()).isEqualTo(5);
    assertThat(j.get("isomorphic_graph_pct").asDouble()).isEqualTo(83.33); // 5/6
    assertThat(j.get("isomorphic_pair_pct").asDouble()).isEqualTo(26.67); // (1 + 3) / 15
    assertThat(j.get("mismatched_pct").asDouble()).isEqualTo(33.33); // orbit {1,3}: 2/6
    assertThat(j.get("orbit_members").toString()).isEqualTo("[[1,3],[2,4,6]]");
  }

  @Test
  void nodeLabelsMustMatchByValue() throws Exception {
    JsonNode j = json("--node-labels");
    assertThat(j.get("orbits").asInt()).isEqualTo(2);
    assertThat(j.get("isomorphic_graphs").asInt()).isEqualTo(4);
    assertThat(j.get("isomorphic_graph_pct").asDouble()).isEqualTo(66.67);
    assertThat(j.get("isomorphic_pair_pct").asDouble()).isEqualTo(13.33);
    assertThat(j.get("mismatched_pct").asDouble()).isEqualTo(33.33);
    assertThat(j.get("orbit_members").toString()).isEqualTo("[[1,3],[2,6]]");
  }

  @Test
  void tableForPeople() {
    assertThat(run("audit", "--tu", dir.toString(), "--name", "TOY")).isZero();
    assertThat(out.toString())
        .contains("Isomorphism audit of TOY: 6 graphs")
        .containsPattern("graphs in non-trivial orbits\\s+5\\s+83.33")
        .containsPattern("isomorphic pairs \\(of 15\\)\\s+4\\s+26.67")
        .containsPattern("mismatched graphs\\s+2\\s+33.33")
        .containsPattern("\\n2\\s+1\\n") // orbit size 2: one orbit
        .containsPattern("\\n3\\s+1\\n") // orbit size 3: one orbit
        .containsPattern("1\\s+2\\s+0,1\\s+1 3");
  }

  @Test
  void cleanExportKeepsOneGraphPerAgreeingOrbit() throws Exception {
    Path clean = dir.resolve("clean");
    assertThat(run("audit", "--tu", dir.toString(), "--name", "TOY", "--clean-out", clean.toString())).isZero();
    List<LabeledGraph> kept = TuDataset.read(clean, "TOY");
    // {1,3} conflicts: dropped; {2,4,6} agrees: graph 2 kept; {5}: kept.
    assertThat(kept).hasSize(2);
    assertThat(kept.get(0).graph().m()).isEqualTo(2);
    assertThat(kept.get(0).graphLabel()).isEqualTo(0);
    assertThat(kept.get(1).graph().n()).isEqualTo(4);
    assertThat(kept.get(1).graphLabel()).isEqualTo(1);
    assertThat(kept.get(0).nodeLabels()).containsExactly(1, 2, 1);
  }

  @Test
  void leakageOfASplitFile() throws Exception {
    Path split = dir.resolve("test_ids.txt");
    Files.writeString(split, "3\n4\n5\n");
    Path splitOut = dir.resolve("split");
    JsonNode j = json("--split-file", split.toString(), "--split-out", splitOut.toString());
    JsonNode l = j.get("leakage");
    assertThat(l.get("train").asInt()).isEqualTo(3);
    assertThat(l.get("test").asInt()).isEqualTo(3);
    // 3 has copy 1 (label 0, its own 1): peering wrong; 4 has copies 2 and 6 (label 0): right.
    assertThat(l.get("leaked_test").asInt()).isEqualTo(2);
    assertThat(l.get("leaked_test_pct").asDouble()).isEqualTo(66.67);
    assertThat(l.get("peering_accuracy_pct").asDouble()).isEqualTo(50.0);
    assertThat(l.get("leaked_test_ids").toString()).isEqualTo("[3,4]");
    assertThat(Files.readString(splitOut.resolve("train.txt"))).isEqualTo("1\n2\n6\n");
    assertThat(Files.readString(splitOut.resolve("test.txt"))).isEqualTo("5\n");
  }

  @Test
  void seededRandomSplitIsReproducible() throws Exception {
    String first = json("--test-ratio", "0.5", "--seed", "42").get("leakage").toString();
    out.getBuffer().setLength(0);
    String second = json("--test-ratio", "0.5", "--seed", "42").get("leakage").toString();
    assertThat(first).isEqualTo(second).contains("\"test\":3");
  }

  @Test
  void graph6InputWithLabelsFile() throws Exception {
    Path g6 = dir.resolve("toy.g6");
    Path labels = dir.resolve("toy.labels");
    // triangle, path, triangle, path, K4
    Files.writeString(g6, "Bw\nBg\nBw\nBW\nC~\n");
    Files.writeString(labels, "1\n0\n1\n1\n0\n");
    assertThat(run("audit", "--g6", g6.toString(), "--labels", labels.toString(), "--json")).as(err.toString()).isZero();
    JsonNode j = new ObjectMapper().readTree(out.toString());
    assertThat(j.get("orbit_members").toString()).isEqualTo("[[1,3],[2,4]]");
    assertThat(j.get("mismatched_pct").asDouble()).isEqualTo(40.0);
    assertThat(j.get("isomorphic_pair_pct").asDouble()).isEqualTo(20.0); // 2 of 10
  }

  @Test
  void edgeLabelsMustMatchByValue() throws Exception {
    // Three paths a-b-c with edge labels (1,2), (2,3) and (2,1): the first and third are the
    // same labelled path; the second has the same label partition shape but other values.
    Path e = dir.resolve("edge");
    Files.createDirectories(e);
    Files.writeString(e.resolve("EL_A.txt"), "1, 2\n2, 3\n4, 5\n5, 6\n7, 8\n8, 9\n");
    Files.writeString(e.resolve("EL_edge_labels.txt"), "1\n2\n2\n3\n2\n1\n");
    Files.writeString(e.resolve("EL_graph_indicator.txt"), "1\n1\n1\n2\n2\n2\n3\n3\n3\n");
    Files.writeString(e.resolve("EL_graph_labels.txt"), "0\n1\n0\n");
    assertThat(run("audit", "--tu", e.toString(), "--name", "EL", "--json", "--edge-labels")).as(err.toString()).isZero();
    assertThat(new ObjectMapper().readTree(out.toString()).get("orbit_members").toString()).isEqualTo("[[1,3]]");
    out.getBuffer().setLength(0);
    assertThat(run("audit", "--tu", e.toString(), "--name", "EL", "--json")).isZero();
    JsonNode plain = new ObjectMapper().readTree(out.toString());
    assertThat(plain.get("orbit_members").toString()).isEqualTo("[[1,2,3]]");
    assertThat(plain.get("mismatched_pct").asDouble()).isEqualTo(100.0);
  }

  @Test
  void unlabelledGraph6SplitHasNoPeeringAccuracy() throws Exception {
    Path g6 = dir.resolve("plain.g6");
    Files.writeString(g6, "Bw\nBg\nBw\n");
    Path split = dir.resolve("t.txt");
    Files.writeString(split, "3\n");
    assertThat(run("audit", "--g6", g6.toString(), "--split-file", split.toString(), "--json")).isZero();
    JsonNode l = new ObjectMapper().readTree(out.toString()).get("leakage");
    assertThat(l.get("leaked_test_ids").toString()).isEqualTo("[3]");
    assertThat(l.get("peering_accuracy_pct").isNull()).isTrue();
  }

  @Test
  void helpStatesThePairDefinition() {
    assertThat(run("audit", "--help")).isZero();
    assertThat(out.toString()).contains("isomorphic pairs % = pairs {i,j}, i<j")
        .contains("N(N-1)/2");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void badUsageExitsWithTwo() {
    assertThat(run("audit", "--tu", dir.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--tu needs --name");
    assertThat(run("audit")).isEqualTo(2);
    assertThat(run("audit", "--tu", dir.toString(), "--g6", "x.g6", "--name", "TOY")).isEqualTo(2);
    assertThat(run("audit", "--tu", dir.toString(), "--name", "TOY", "--test-ratio", "1.5")).isEqualTo(2);
    assertThat(err.toString()).contains("--test-ratio must be strictly between 0 and 1");
    assertThat(run("audit", "--g6", "x.g6", "--node-labels")).isEqualTo(2);
  }

  @Test
  void badInputIsOneClearLine() throws Exception {
    assertThat(run("audit", "--tu", dir.toString(), "--name", "NOPE")).isEqualTo(1);
    assertThat(err.toString()).contains("NOPE_A.txt").contains("missing");

    Path split = dir.resolve("bad_split.txt");
    Files.writeString(split, "2\n9\n");
    err.getBuffer().setLength(0);
    assertThat(run("audit", "--tu", dir.toString(), "--name", "TOY", "--split-file", split.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("bad_split.txt line 2: graph id 9 out of range 1..6");

    Files.writeString(split, "2\nabc\n");
    err.getBuffer().setLength(0);
    assertThat(run("audit", "--tu", dir.toString(), "--name", "TOY", "--split-file", split.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("line 2: expected an integer graph id, found 'abc'");

    err.getBuffer().setLength(0);
    assertThat(run("audit", "--tu", dir.toString(), "--name", "TOY", "--edge-labels")).isEqualTo(1);
    assertThat(err.toString()).contains("no TOY_edge_labels.txt");

    Path g6 = dir.resolve("two.g6");
    Files.writeString(g6, "Bw\nBg\n");
    Path labels = dir.resolve("three.labels");
    Files.writeString(labels, "1\n2\n3\n");
    err.getBuffer().setLength(0);
    assertThat(run("audit", "--g6", g6.toString(), "--labels", labels.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("3 labels for 2 graphs");

    err.getBuffer().setLength(0);
    assertThat(run("audit", "--g6", dir.resolve("missing.g6").toString())).isEqualTo(1);
    assertThat(err.toString()).contains("missing.g6: no such file");
    assertThat(err.toString()).doesNotContain("Exception");
  }
}
