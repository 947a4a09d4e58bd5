package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The exact stability checks (the collision guard's decision) against a brute-force check that
 * sorts and compares every cell's signature, on stable colourings and on colourings where two
 * classes were merged, as a hash collision would do.
 */
class StabilityCheckTest {

  private static boolean bruteForceStable(CellRefinement r) {
    long[] buf = new long[r.maxSignatureLength()];
    long[][] sigOfClass = new long[r.classes()][];
    for (int i = 0; i < r.cells; i++) {
      int l = r.signature(i, buf);
      long[] s = Arrays.copyOf(buf, l);
      Arrays.sort(s);
      int c = r.colours()[i];
      if (sigOfClass[c] == null) {
        sigOfClass[c] = s;
      } else if (!Arrays.equals(sigOfClass[c], s)) {
        return false;
      }
    }
    return true;
  }

  /** Merges class b into class a (a < b) and renumbers densely. */
  private static void merge(CellRefinement r, int a, int b) {
    int[] c = r.colours();
    for (int i = 0; i < c.length; i++) {
      if (c[i] == b) {
        c[i] = a;
      } else if (c[i] > b) {
        c[i]--;
      }
    }
    r.classes--;
  }

  private static int[] check(java.util.function.Supplier<CellRefinement> make, Random rnd) {
    CellRefinement r = make.get();
    r.refine((c, k) -> false);
    assertThat(r.isStable()).isTrue();
    assertThat(bruteForceStable(r)).isTrue();
    if (r.classes() < 2) {
      return new int[] {0, 0};
    }
    int a = rnd.nextInt(r.classes() - 1);
    int b = a + 1 + rnd.nextInt(r.classes() - a - 1);
    merge(r, a, b);
    boolean expected = bruteForceStable(r);
    assertThat(r.isStable()).isEqualTo(expected);
    return new int[] {expected ? 1 : 0, expected ? 0 : 1};
  }

  @Test
  void vertexRefinementCheckMatchesBruteForce() {
    Random rnd = new Random(1);
    int unstable = 0;
    for (int i = 0; i < 60; i++) {
      int n = 4 + rnd.nextInt(10);
      Graph g = TestGraphs.random(rnd, n, 0.3);
      Graph h = TestGraphs.random(rnd, n, 0.3);
      unstable += check(() -> VertexRefinement.union(new Graph[] {g, h}, new int[2 * n], Hashing.DEFAULT), rnd)[1];
    }
    assertThat(unstable).isPositive();
  }

  @Test
  void twoFwlChecksMatchBruteForceOnBothPaths() {
    Random rnd = new Random(2);
    int unstable = 0;
    for (int i = 0; i < 40; i++) {
      int n = 4 + rnd.nextInt(8);
      Graph g = TestGraphs.random(rnd, n, 0.4);
      Graph h = g.relabel(TestGraphs.permutation(rnd, n)); // runs to the stable partition
      unstable += check(() -> new TwoFwl.Pairs(g, h, Hashing.DEFAULT), rnd)[1];
    }
    // Few classes (the popcount path): strongly regular graphs keep their 3 atomic classes.
    Graph s = TestGraphs.shrikhande();
    unstable += check(() -> new TwoFwl.Pairs(s, TestGraphs.rook4x4(), Hashing.DEFAULT), rnd)[1];
    assertThat(unstable).isPositive();
  }

  @Test
  void threeFwlCheckMatchesBruteForce() {
    Random rnd = new Random(3);
    int unstable = 0;
    for (int i = 0; i < 15; i++) {
      int n = 3 + rnd.nextInt(4);
      Graph g = TestGraphs.random(rnd, n, 0.5);
      Graph h = g.relabel(TestGraphs.permutation(rnd, n));
      unstable += check(() -> new ThreeFwl.Triples(g, h, Hashing.DEFAULT), rnd)[1];
    }
    assertThat(unstable).isPositive();
  }
}
