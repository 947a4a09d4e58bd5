package io.expresso.iso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.expresso.graph.Graph;
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
 * them equal canonical graph6 strings. Skipped, with a message, only where labelg is not installed
 * ({@code apt-get install nauty}; CI installs it).
 */
class LabelgOracleTest {

  static Path labelg;

  @TempDir Path tmp;

  @BeforeAll
  static void findLabelg() {
    Optional<Path> found = Labelg.find();
    assumeTrue(found.isPresent(), "nauty's labelg is not on the PATH (apt-get install nauty): oracle tests skipped");
    labelg = found.get();
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

  private void assertSameClasses(List<Graph> graphs) throws Exception {
    List<String> nauty = Labelg.canonicalForms(labelg, graphs, tmp);
    Map<String, Integer> nautyClass = new HashMap<>();
    Map<Certificate, Integer> ourClass = new HashMap<>();
    int[] nautyIds = new int[graphs.size()];
    int[] ourIds = new int[graphs.size()];
    for (int i = 0; i < graphs.size(); i++) {
      nautyIds[i] = nautyClass.computeIfAbsent(nauty.get(i), k -> nautyClass.size());
      ourIds[i] = ourClass.computeIfAbsent(Canonizer.certificate(graphs.get(i)), k -> ourClass.size());
    }
    // Classes are numbered by first occurrence, so equal partitions give equal id arrays.
    assertThat(ourIds).isEqualTo(nautyIds);
    assertThat(ourClass.size()).isLessThan(graphs.size()); // the families do contain isomorphic copies
  }
}
