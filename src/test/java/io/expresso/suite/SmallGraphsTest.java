package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The enumeration against OEIS A000088 and a brute-force canonical form independent of iso/. */
class SmallGraphsTest {

  @Test
  void countsMatchOeisA000088() {
    int[] expected = {1, 1, 2, 4, 11, 34, 156, 1044};
    for (int n = 0; n < expected.length; n++) {
      assertThat(SmallGraphs.all(n)).as("graphs on %d vertices", n).hasSize(expected[n]);
    }
  }

  @Test
  void everyLabelledGraphOnFiveVerticesIsRepresentedExactlyOnce() {
    int n = 5;
    Set<Long> repForms = new HashSet<>();
    for (Graph g : SmallGraphs.all(n)) {
      assertThat(repForms.add(bruteForceCanonical(g))).as("repeated class %s", g).isTrue();
    }
    Set<Long> seen = new HashSet<>();
    for (int mask = 0; mask < 1 << (n * (n - 1) / 2); mask++) {
      seen.add(bruteForceCanonical(fromMask(n, mask)));
    }
    assertThat(repForms).isEqualTo(seen);
  }

  @Test
  void graphsOnSixAndSevenVerticesArePairwiseNonIsomorphic() {
    // With the counts above, no repeats means every class is there exactly once.
    for (int n = 6; n <= 7; n++) {
      Set<Long> forms = new HashSet<>();
      for (Graph g : SmallGraphs.all(n)) {
        assertThat(forms.add(bruteForceCanonical(g))).as("repeated class %s", g).isTrue();
      }
    }
  }

  @Test
  void enumerationIsDeterministic() {
    assertThat(SmallGraphs.all(6)).isEqualTo(SmallGraphs.all(6));
  }

  static Graph fromMask(int n, int mask) {
    GraphBuilder b = new GraphBuilder(n);
    int bit = 0;
    for (int v = 1; v < n; v++) {
      for (int u = 0; u < v; u++, bit++) {
        if ((mask >> bit & 1) != 0) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** The largest upper-triangle bit string over all n! vertex orders. */
  static long bruteForceCanonical(Graph g) {
    int n = g.n();
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    long best = -1;
    do {
      long code = 0;
      for (int v = 1; v < n; v++) {
        for (int u = 0; u < v; u++) {
          code = code << 1 | (g.adjacent(perm[u], perm[v]) ? 1 : 0);
        }
      }
      best = Math.max(best, code);
    } while (nextPermutation(perm));
    return best;
  }

  private static boolean nextPermutation(int[] a) {
    int i = a.length - 2;
    while (i >= 0 && a[i] >= a[i + 1]) {
      i--;
    }
    if (i < 0) {
      return false;
    }
    int j = a.length - 1;
    while (a[j] <= a[i]) {
      j--;
    }
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = a.length - 1; l < r; l++, r--) {
      t = a[l];
      a[l] = a[r];
      a[r] = t;
    }
    return true;
  }
}
