package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CountAndAttackCommandTest {

  @TempDir Path dir;

  record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  private Path graphs(Graph... gs) throws Exception {
    Path f = dir.resolve("graphs.g6");
    Graph6.writeFile(f, List.of(gs));
    return f;
  }

  @Test
  void countPrintsOneRowPerGraphAndATotal() throws Exception {
    Graph a = RandomGraphs.paperSbm(1);
    Graph b = RandomGraphs.paperSbm(2);
    Run r = run("count", "--pattern", "4-cycle", graphs(a, b).toString());
    assertThat(r.exit()).isZero();
    long ca = InducedCounts.count(a, Pattern.FOUR_CYCLE);
    long cb = InducedCounts.count(b, Pattern.FOUR_CYCLE);
    List<String> lines = r.out().lines().toList();
    assertThat(lines.get(0)).contains("graph", "4-cycle");
    assertThat(lines.get(2).trim().split("\\s+")).containsExactly("0", "30", String.valueOf(a.m()), String.valueOf(ca));
    assertThat(lines.get(3).trim().split("\\s+")).containsExactly("1", "30", String.valueOf(b.m()), String.valueOf(cb));
    assertThat(lines.get(5).trim().split("\\s+")).containsExactly("total", String.valueOf(ca + cb));
  }

  @Test
  void perNodeCountsCopiesContainingEachNode() throws Exception {
    Graph star = Graph.fromEdges(5, 0, 1, 0, 2, 0, 3, 0, 4);
    Run r = run("count", "--pattern", "3-star", "--per-node", graphs(star).toString());
    assertThat(r.exit()).isZero();
    List<String> rows = r.out().lines().skip(2).map(l -> String.join(" ", l.trim().split("\\s+"))).toList();
    assertThat(rows).containsExactly("0 0 4 4", "0 1 1 3", "0 2 1 3", "0 3 1 3", "0 4 1 3");
    Run orbits = run("count", "--pattern", "3-star", "--per-node", "--orbits", graphs(star).toString());
    assertThat(orbits.out()).contains("0/0/0/4", "0/3/0/0");
  }

  @Test
  void unknownPatternIsOneLineListingValidNamesWithExitTwo() throws Exception {
    Run r = run("count", "--pattern", "pentagon", graphs(Graph.empty(3)).toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().lines().count()).isEqualTo(1);
    assertThat(r.err()).contains("unknown pattern 'pentagon'; valid patterns: triangle, 2-path, 4-clique,"
        + " chordal-cycle, tailed-triangle, 3-star, 4-cycle, 3-path");
    Run b = run("attack", "bench", "--pattern", "pentagon", "--graphs", "x.g6");
    assertThat(b.exit()).isEqualTo(2);
    assertThat(b.err()).contains("unknown pattern 'pentagon'");
  }

  @Test
  void badFilesFailWithExitOneAndAClearMessage() throws Exception {
    Run missing = run("count", "--pattern", "triangle", dir.resolve("nope.g6").toString());
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("cannot read graph file", "nope.g6", "no such file");
    Path bad = dir.resolve("bad.g6");
    Files.writeString(bad, "Bw\nthis is not graph6\n");
    Run malformed = run("attack", "bench", "--pattern", "triangle", "--graphs", bad.toString());
    assertThat(malformed.exit()).isEqualTo(1);
    assertThat(malformed.err()).startsWith("expresso: error:").contains("bad.g6 line 2");
  }

  @Test
  void benchJsonHasExactlyTheSpecifiedFieldsAndNoMismatches() throws Exception {
    List<Graph> gs = new ArrayList<>();
    for (int s = 0; s < 2; s++) {
      gs.add(RandomGraphs.paperSbm(s));
    }
    Path f = graphs(gs.toArray(Graph[]::new));
    for (Pattern p : Pattern.values()) {
      long expectedSum = 0;
      for (Graph g : gs) {
        for (int i = 0; i < 30; i++) {
          for (int j = i + 1; j < 30; j++) {
            expectedSum += InducedCounts.count(g.flip(i, j), p);
          }
        }
      }
      // the ego-net reference is slower: check it on two patterns of different diameter
      boolean withEgoNet = p == Pattern.TRIANGLE || p == Pattern.THREE_PATH;
      for (String counter : withEgoNet ? new String[] {"delta", "ego-net"} : new String[] {"delta"}) {
        Run r = run("attack", "bench", "--pattern", p.cliName(), "--graphs", f.toString(), "--json",
            "--counter", counter);
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        List<String> fields = new ArrayList<>();
        for (Iterator<String> it = json.fieldNames(); it.hasNext(); ) {
          fields.add(it.next());
        }
        assertThat(fields).containsExactly("pattern", "graphs", "perturbations", "count_sum", "seconds", "mismatches");
        assertThat(json.get("pattern").asText()).isEqualTo(p.cliName());
        assertThat(json.get("graphs").asInt()).isEqualTo(2);
        assertThat(json.get("perturbations").asLong()).isEqualTo(2 * 435);
        assertThat(json.get("count_sum").asLong()).isEqualTo(expectedSum);
        assertThat(json.get("seconds").asDouble()).isPositive();
        assertThat(json.get("mismatches").asLong()).isZero();
      }
    }
  }

  @Test
  void generateWritesAReadableDatasetWithExactCounts() throws Exception {
    Path prefix = dir.resolve("sbm");
    Run r = run("count", "generate", "--graphs", "3", "--seed", "7", "--out", prefix.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("wrote 3 graphs");
    var d = io.expresso.count.CountingDataset.read(dir.resolve("sbm.g6"), dir.resolve("sbm.csv"));
    assertThat(d.graphs()).containsExactly(RandomGraphs.paperSbm(7), RandomGraphs.paperSbm(8), RandomGraphs.paperSbm(9));
    Run er = run("count", "generate", "--model", "er", "--n", "12", "--p", "0.5", "--graphs", "2", "--out",
        dir.resolve("er").toString());
    assertThat(er.exit()).isZero();
    assertThat(Graph6.readFile(dir.resolve("er.g6"))).containsExactly(
        RandomGraphs.erdosRenyi(12, 0.5, 0), RandomGraphs.erdosRenyi(12, 0.5, 1));
    Run bad = run("count", "generate", "--model", "ba", "--out", prefix.toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("unknown model 'ba'; valid: sbm, er");
    Run noPattern = run("count", dir.resolve("sbm.g6").toString());
    assertThat(noPattern.exit()).isEqualTo(2);
    assertThat(noPattern.err()).contains("missing required option '--pattern'");
  }

  @Test
  void studySplitIsTheTrainTasksOwnData() throws Exception {
    Path prefix = dir.resolve("study");
    Run r = run("count", "generate", "--graphs", "20", "--seed", "5", "--study-split", "--out", prefix.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    var split = io.expresso.count.RobustnessData.sbm(20, 5);
    for (var part : java.util.Map.of("train", split.train(), "validation", split.validation(), "test", split.test())
        .entrySet()) {
      var d = io.expresso.count.CountingDataset.read(dir.resolve("study." + part.getKey() + ".g6"),
          dir.resolve("study." + part.getKey() + ".csv"));
      assertThat(d.graphs()).as(part.getKey()).isEqualTo(part.getValue().graphs());
    }
    assertThat(split.train().graphs()).hasSize(6); // 30 / 20 / 50
    Run er = run("count", "generate", "--model", "er", "--study-split", "--out", prefix.toString());
    assertThat(er.exit()).isEqualTo(2);
    assertThat(er.err()).contains("--study-split needs --model sbm, got 'er'");
  }

  @Test
  void benchTableForPeople() throws Exception {
    Run r = run("attack", "bench", "--pattern", "triangle", "--graphs", graphs(RandomGraphs.paperSbm(9)).toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("perturbations", "µs/flip", "435");
  }
}
