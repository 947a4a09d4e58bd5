package io.expresso.iso;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import io.expresso.metrics.ExternalTools;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our isomorphism classes equal nauty's: graphs get equal certificates exactly when labelg gives
 * them equal canonical graph6 strings. Without nauty the tests fail naming the package: labelg is
 * the canoniser's only oracle above 7 vertices, so a skip would hide that nothing was checked.
 */
class LabelgOracleTest {

  static Path labelg;

  @TempDir Path tmp;

  @BeforeAll
  static void findLabelg() {
    Optional<Path> found = Labelg.find();
    labelg = found.orElseThrow(() -> new AssertionError(ExternalTools.missing("nauty's labelg", "nauty")));
  }

  @Test
  void randomGraphs() throws Exception {
    Random rnd = new Random(1);
    List<Graph> graphs = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      Graph g = TestGraphs.erdosRenyi(4 + rnd.nextInt(9), 0.1 + 0.8 * rnd.nextDouble(), rnd);
      graphs.add(g);
      if (rnd.nextInt(3) == 0) {
        graphs.add(TestGraphs.shuffle(g, rnd));
      }
    }
    assertSameClasses(graphs);
  }

  @Test
  void randomRegularGraphs() throws Exception {
    Random rnd = new Random(2);
    List<Graph> graphs = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      graphs.add(TestGraphs.randomRegular(8, 3, rnd)); // few classes: many collisions
      graphs.add(TestGraphs.randomRegular(10, 4, rnd));
      graphs.add(TestGraphs.randomRegular(30, 3, rnd));
    }
    assertSameClasses(graphs);
  }

  @Test
  void stronglyRegularPairs() throws Exception {
    Random rnd = new Random(3);
    List<Graph> graphs = new ArrayList<>();
    for (Graph g : List.of(TestGraphs.rook4x4(), TestGraphs.shrikhande(), TestGraphs.paley(29),
        TestGraphs.paley(13), TestGraphs.rook4x4().complement(), TestGraphs.shrikhande().complement())) {
      graphs.add(g);
      for (int t = 0; t < 4; t++) {
        graphs.add(TestGraphs.shuffle(g, rnd));
      }
    }
    assertSameClasses(graphs);
  }

  @Test
  void cfiGraphs() throws Exception {
    Random rnd = new Random(4);
    List<Graph> graphs = new ArrayList<>();
    Graph k4 = TestGraphs.complete(4);
    Graph petersen = TestGraphs.petersen();
    int[][] twistSets = {{}, {0}, {3}, {0, 1}, {2, 5}, {0, 1, 2}};
    for (Graph base : List.of(k4, petersen)) {
      for (int[] twists : twistSets) {
        Graph g = TestGraphs.cfi(base, twists);
        graphs.add(g);
        graphs.add(TestGraphs.shuffle(g, rnd));
      }
    }
    assertSameClasses(graphs);
  }

  @Test
  void allGraphsOnSevenVerticesFromGengAndTheirRandomRelabellings() throws Exception {
    Optional<Path> geng = Labelg.findTool("geng");
    Optional<Path> ranlabg = Labelg.findTool("ranlabg");
    assertThat(geng.isPresent() && ranlabg.isPresent()).as(ExternalTools.missing("nauty's geng/ranlabg", "nauty")).isTrue();
    Path all = tmp.resolve("g7.g6");
    Path shuffled = tmp.resolve("g7r.g6");
    Labelg.run(List.of(geng.get().toString(), "-q", "7", all.toString()));
    Labelg.run(List.of(ranlabg.get().toString(), "-q", all.toString(), shuffled.toString()));
    List<Graph> graphs = new ArrayList<>(io.expresso.graph.Graph6.readFile(all));
    int count = graphs.size();
    assertThat(count).isEqualTo(1044); // the number of graphs on 7 vertices (OEIS A000088)
    graphs.addAll(io.expresso.graph.Graph6.readFile(shuffled));
    Orbits orbits = Orbits.of(graphs.stream().map(ColouredGraph::uncoloured).toList());
    List<int[]> expected = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      expected.add(new int[] {i, i + count});
    }
    assertThat(orbits.all()).containsExactlyElementsOf(expected);
  }

  @Test
  void colouredGraphsAgainstLabelgPartitionOption() throws Exception {
    // Every graph uses the colouring "aaabbbbccc"; copies are shuffled within colour classes, and
    // some are shuffled across classes (then they usually are not colour-isomorphic).
    String colouring = "aaabbbbccc";
    long[] colours = new long[colouring.length()];
    for (int v = 0; v < colours.length; v++) {
      colours[v] = colouring.charAt(v);
    }
    Random rnd = new Random(5);
    List<Graph> graphs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Graph g = TestGraphs.erdosRenyi(10, 0.2 + 0.3 * rnd.nextDouble(), rnd);
      graphs.add(g);
      int[] perm = TestGraphs.permutation(10, rnd);
      if (rnd.nextBoolean()) { // keep classes: sort the permutation's images within each class
        for (int[] cell : new int[][] {{0, 3}, {3, 7}, {7, 10}}) {
          int[] images = TestGraphs.permutation(cell[1] - cell[0], rnd);
          for (int k = 0; k < images.length; k++) {
            perm[cell[0] + k] = cell[0] + images[k];
          }
        }
      }
      graphs.add(g.relabel(perm));
    }
    List<String> nauty = Labelg.canonicalForms(labelg, graphs, colouring, tmp);
    List<Certificate> ours = graphs.stream().map(g -> Canonizer.certificate(g, colours)).toList();
    assertPartitionsEqual(nauty, ours);
  }

  private void assertSameClasses(List<Graph> graphs) throws Exception {
    List<String> nauty = Labelg.canonicalForms(labelg, graphs, tmp);
    List<Certificate> ours = graphs.stream().map(Canonizer::certificate).toList();
    assertPartitionsEqual(nauty, ours);
  }

  private static void assertPartitionsEqual(List<String> nauty, List<Certificate> ours) {
    Map<String, Integer> nautyClass = new HashMap<>();
    Map<Certificate, Integer> ourClass = new HashMap<>();
    int[] nautyIds = new int[ours.size()];
    int[] ourIds = new int[ours.size()];
    for (int i = 0; i < ours.size(); i++) {
      nautyIds[i] = nautyClass.computeIfAbsent(nauty.get(i), k -> nautyClass.size());
      ourIds[i] = ourClass.computeIfAbsent(ours.get(i), k -> ourClass.size());
    }
    // Classes are numbered by first occurrence, so equal partitions give equal id arrays.
    assertThat(ourIds).isEqualTo(nautyIds);
    assertThat(ourClass.size()).isLessThan(ours.size()); // the families do contain isomorphic copies
    assertThat(ourClass.size()).isGreaterThan(1);
  }
}
