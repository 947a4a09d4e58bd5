package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * With a degenerate hash (every value 0, so every fast round collides completely) the answers
 * must stay exact: the stability check notices and exact signature comparison takes over.
 */
class CollisionGuardTest {

  private static List<PairDistinguisher> degenerate() {
    Hashing d = Hashing.DEGENERATE;
    return List.of(new OneWl(d), new TwoFwl(d), new ThreeFwl(d), new SpdWl(d), new SubstructureWl(3, d),
        new SubstructureWl(4, d), new EgoNetWl(1, d), new EgoNetWl(2, d), new NodeMarkingWl(d));
  }

  @Test
  void degenerateHashingGivesTheSameAnswersOnKnownPairs() {
    Graph[][] pairs = {
      {TestGraphs.csl(41, 2), TestGraphs.csl(41, 3)},
      {TestGraphs.decalin(), TestGraphs.bicyclopentyl()},
      {TestGraphs.shrikhande(), TestGraphs.rook4x4()},
      {TestGraphs.hexagon(), TestGraphs.twoTriangles()},
    };
    for (PairDistinguisher m : degenerate()) {
      for (Graph[] p : pairs) {
        if (m instanceof ThreeFwl && p[0].n() > ThreeFwl.MAX_VERTICES) {
          continue;
        }
        boolean reference = WlMethods.byName(m.name()).distinguishes(p[0], p[1]);
        assertThat(m.distinguishes(p[0], p[1])).as("%s on %s", m.name(), p[0]).isEqualTo(reference);
      }
    }
  }

  @Test
  void degenerateHashingGivesTheSameAnswersOnRandomPairs() {
    Random rnd = new Random(99);
    for (int i = 0; i < 40; i++) {
      int n = 4 + rnd.nextInt(6);
      Graph g = TestGraphs.random(rnd, n, 0.4);
      Graph h = i % 2 == 0 ? g.relabel(TestGraphs.permutation(rnd, n)) : TestGraphs.random(rnd, n, 0.4);
      for (PairDistinguisher m : degenerate()) {
        boolean reference = WlMethods.byName(m.name()).distinguishes(g, h);
        assertThat(m.distinguishes(g, h)).as("%s on %s vs %s", m.name(), g, h).isEqualTo(reference);
      }
    }
  }

  @Test
  void theFallbackIsWhatRefinesUnderDegenerateHashing() {
    Graph path = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4);
    VertexRefinement exact = VertexRefinement.union(new Graph[] {path}, new int[5], Hashing.DEGENERATE);
    exact.refine((c, k) -> false);
    VertexRefinement fast = VertexRefinement.union(new Graph[] {path}, new int[5], Hashing.DEFAULT);
    fast.refine((c, k) -> false);
    assertThat(exact.usedExactFallback()).isTrue();
    assertThat(fast.usedExactFallback()).isFalse();
    // Both end in the stable partition of P5: {0,4}, {1,3}, {2}.
    for (VertexRefinement r : List.of(exact, fast)) {
      int[] c = r.colours();
      assertThat(r.classes()).isEqualTo(3);
      assertThat(c[0]).isEqualTo(c[4]);
      assertThat(c[1]).isEqualTo(c[3]);
      assertThat(c[0]).isNotEqualTo(c[1]).isNotEqualTo(c[2]);
      assertThat(c[1]).isNotEqualTo(c[2]);
    }
  }

  @Test
  void twoFwlFallbackReachesTheSameStablePartition() {
    // Every fast round collides; the exact rounds must reach the same number of classes.
    TwoFwl.Pairs r = new TwoFwl.Pairs(TestGraphs.decalin(), TestGraphs.decalin(), Hashing.DEGENERATE);
    r.refine((c, k) -> false);
    assertThat(r.usedExactFallback()).isTrue();
    TwoFwl.Pairs f = new TwoFwl.Pairs(TestGraphs.decalin(), TestGraphs.decalin(), Hashing.DEFAULT);
    f.refine((c, k) -> false);
    assertThat(r.classes()).isEqualTo(f.classes());
  }
}
