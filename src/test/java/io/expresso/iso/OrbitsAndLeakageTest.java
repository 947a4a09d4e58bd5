package io.expresso.iso;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class OrbitsAndLeakageTest {

  private static List<ColouredGraph> uncoloured(List<Graph> graphs) {
    return graphs.stream().map(ColouredGraph::uncoloured).toList();
  }

  @Test
  void orbitsMatchPairwiseBruteForceOnRandomSmallGraphs() {
    Random rnd = new Random(9);
    List<Graph> graphs = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      graphs.add(TestGraphs.erdosRenyi(5, 0.5, rnd)); // 34 classes on 5 vertices: many collisions
    }
    Orbits orbits = Orbits.of(uncoloured(graphs));
    long[] none = new long[5];
    for (int i = 0; i < graphs.size(); i++) {
      for (int j = i + 1; j < graphs.size(); j++) {
        boolean iso = TestGraphs.bruteForceIsomorphic(graphs.get(i), graphs.get(j), none, none);
        assertThat(orbits.orbitOf(i) == orbits.orbitOf(j)).as("graphs %d, %d", i, j).isEqualTo(iso);
      }
    }
    // Orbits are numbered by first member and list members ascending.
    List<int[]> all = orbits.all();
    for (int k = 0; k < all.size(); k++) {
      int[] o = all.get(k);
      assertThat(o).isSorted();
      assertThat(orbits.orbitOf(o[0])).isEqualTo(k);
      if (k > 0) {
        assertThat(o[0]).isGreaterThan(all.get(k - 1)[0]);
      }
    }
  }

  @Test
  void wlEquivalentNonIsomorphicGraphsShareABucketButNotAnOrbit() {
    // Rook 4x4 and Shrikhande: same n, m, degrees and 1-WL colours; only certificates separate them.
    Random rnd = new Random(1);
    List<Graph> graphs = List.of(TestGraphs.rook4x4(), TestGraphs.shrikhande(),
        TestGraphs.shuffle(TestGraphs.rook4x4(), rnd), TestGraphs.shuffle(TestGraphs.shrikhande(), rnd));
    Orbits orbits = Orbits.of(uncoloured(graphs));
    assertThat(orbits.nonTrivial()).containsExactly(new int[] {0, 2}, new int[] {1, 3});
  }

  @Test
  void reportMetricsFollowTheDefinitions() {
    // Orbits {0,1,2} (labels a,a,b: mismatched), {3,4} (c,c), {5}; N = 6.
    Graph tri = TestGraphs.complete(3);
    Graph path = Graph.fromEdges(3, 0, 1, 1, 2);
    Graph empty = Graph.empty(3);
    Orbits orbits = Orbits.of(uncoloured(List.of(tri, tri, tri, path, path, empty)));
    AuditReport r = AuditReport.of(orbits, Arrays.asList("a", "a", "b", "c", "c", "d"));
    assertThat(r.orbits()).isEqualTo(2);
    assertThat(r.isomorphicGraphs()).isEqualTo(5);
    assertThat(r.isomorphicPairs()).isEqualTo(3 + 1);
    assertThat(r.isomorphicPairPct()).isEqualTo(26.67); // 4 / 15
    assertThat(r.mismatchedGraphs()).isEqualTo(3);
    assertThat(r.mismatchedPct()).isEqualTo(50.0);
    assertThat(r.orbitSizes()).containsEntry(3, 1).containsEntry(2, 1).hasSize(2);
    assertThat(CleanDataset.keep(orbits, Arrays.asList("a", "a", "b", "c", "c", "d"))).containsExactly(3, 5);
  }

  @Test
  void emptyAndSingletonDatasets() {
    AuditReport none = AuditReport.of(Orbits.of(List.of()), List.of());
    assertThat(none.graphs()).isZero();
    assertThat(none.isomorphicPairPct()).isZero();
    AuditReport one = AuditReport.of(Orbits.of(uncoloured(List.of(Graph.empty(0)))), Arrays.asList((Object) null));
    assertThat(one.orbits()).isZero();
    assertThat(one.isomorphicGraphPct()).isZero();
  }

  @Test
  void peeringUsesTheMajorityTrainLabel() {
    Graph tri = TestGraphs.complete(3);
    Graph path = Graph.fromEdges(3, 0, 1, 1, 2);
    // train: tri(1), tri(1), tri(0), path(5); test: tri(1) leaked+right, path(4) leaked+wrong, K4(1) clean
    List<Graph> graphs = List.of(tri, tri, tri, path, tri, path, TestGraphs.complete(4));
    boolean[] isTest = {false, false, false, false, true, true, true};
    Leakage.Report r = Leakage.of(Orbits.of(uncoloured(graphs)), List.of(1, 1, 0, 5, 1, 4, 1), isTest);
    assertThat(r.train()).isEqualTo(4);
    assertThat(r.test()).isEqualTo(3);
    assertThat(r.leakedTest()).containsExactly(4, 5);
    assertThat(r.peeringCorrect()).isEqualTo(1);
    assertThat(r.peeringAccuracyPct()).isEqualTo(50.0);
    assertThat(r.cleanTest()).containsExactly(6);
  }

  @Test
  void leakageBetweenGeneratedTrainAndTestLists() {
    Random rnd = new Random(4);
    Graph a = TestGraphs.erdosRenyi(12, 0.4, rnd);
    Graph b = TestGraphs.cfi(TestGraphs.complete(4));
    Graph bTwisted = TestGraphs.cfi(TestGraphs.complete(4), 0);
    List<Graph> train = List.of(a, b);
    List<Graph> test = List.of(bTwisted, TestGraphs.shuffle(a, rnd), TestGraphs.shuffle(b, rnd));
    Leakage.Report r = Leakage.between(train, test);
    assertThat(r.leakedTest()).containsExactly(1, 2);
    assertThat(r.cleanTest()).containsExactly(0);
  }
}
