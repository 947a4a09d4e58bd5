package io.expresso.count;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EdgeOrbitCountsTest {

  @Test
  void degreePairsAreExactlyTheEdgeOrbitsOfEveryPattern() {
    int columns = 0;
    for (Pattern p : Pattern.values()) {
      Graph h = p.graph();
      Set<Set<List<Integer>>> byAutomorphism = automorphismEdgeOrbits(h);
      Map<List<Integer>, Set<List<Integer>>> byDegrees = new HashMap<>();
      for (int[] e : h.edges()) {
        int du = h.degree(e[0]);
        int dv = h.degree(e[1]);
        byDegrees.computeIfAbsent(List.of(Math.min(du, dv), Math.max(du, dv)), x -> new HashSet<>())
            .add(List.of(e[0], e[1]));
      }
      assertThat(new HashSet<>(byDegrees.values())).as(p.cliName()).isEqualTo(byAutomorphism);
      columns += byAutomorphism.size();
    }
    // triangle 1, 2-path 1, 4-clique 1, diamond 2, tailed triangle 3, 3-star 1, 4-cycle 1, 3-path 2
    assertThat(columns).isEqualTo(12);
    assertThat(EdgeOrbitCounts.columns()).hasSize(12);
  }

  @Test
  void countsMatchBruteForceEnumerationOfInducedCopies() {
    for (long seed = 1; seed <= 4; seed++) {
      Graph g = RandomGraphs.erdosRenyi(9, 0.45, seed);
      long[][] fast = EdgeOrbitCounts.perDirectedEdge(g);
      long[][] slow = new long[fast.length][EdgeOrbitCounts.columns().size()];
      List<EdgeOrbitCounts.Orbit> cols = EdgeOrbitCounts.columns();
      int[] offsets = g.csrOffsets();
      int[] targets = g.csrTargets();
      for (Pattern p : Pattern.values()) {
        for (List<Integer> copy : BruteForce.copies(g, p)) {
          for (int u : copy) {
            for (int p0 = offsets[u]; p0 < offsets[u + 1]; p0++) {
              int v = targets[p0];
              if (!copy.contains(v)) {
                continue;
              }
              int du = degreeInside(g, copy, u);
              int dv = degreeInside(g, copy, v);
              int c = cols.indexOf(new EdgeOrbitCounts.Orbit(p, Math.min(du, dv), Math.max(du, dv)));
              assertThat(c).isNotNegative();
              slow[p0][c]++;
            }
          }
        }
      }
      for (int e = 0; e < fast.length; e++) {
        assertThat(fast[e]).as("seed %d edge %d", seed, e).containsExactly(slow[e]);
      }
    }
  }

  @Test
  void aTailedTriangleByHand() {
    // triangle 0-1-2 with tail 2-3
    Graph g = Graph.fromEdges(4, 0, 1, 1, 2, 2, 0, 2, 3);
    long[][] c = EdgeOrbitCounts.perDirectedEdge(g);
    List<EdgeOrbitCounts.Orbit> cols = EdgeOrbitCounts.columns();
    int tail = java.util.Arrays.binarySearch(g.csrTargets(), g.csrOffsets()[3], g.csrOffsets()[4], 2);
    long[] row = c[tail];
    assertThat(row[cols.indexOf(new EdgeOrbitCounts.Orbit(Pattern.TAILED_TRIANGLE, 1, 3))]).isEqualTo(1);
    assertThat(row[cols.indexOf(new EdgeOrbitCounts.Orbit(Pattern.TWO_PATH, 1, 2))]).isEqualTo(2); // 3-2-0, 3-2-1
    assertThat(java.util.Arrays.stream(row).sum()).isEqualTo(3);
  }

  private static int degreeInside(Graph g, List<Integer> copy, int v) {
    int d = 0;
    for (int u : copy) {
      d += u != v && g.adjacent(u, v) ? 1 : 0;
    }
    return d;
  }

  /** Edge orbits under every vertex permutation that maps h's edge set onto itself. */
  private static Set<Set<List<Integer>>> automorphismEdgeOrbits(Graph h) {
    List<int[]> autos = new ArrayList<>();
    permute(new int[h.n()], new boolean[h.n()], 0, h, autos);
    Set<Set<List<Integer>>> orbits = new HashSet<>();
    for (int[] e : h.edges()) {
      Set<List<Integer>> orbit = new HashSet<>();
      for (int[] a : autos) {
        int x = a[e[0]];
        int y = a[e[1]];
        orbit.add(List.of(Math.min(x, y), Math.max(x, y)));
      }
      orbits.add(orbit);
    }
    return orbits;
  }

  private static void permute(int[] perm, boolean[] used, int i, Graph h, List<int[]> out) {
    if (i == perm.length) {
      for (int[] e : h.edges()) {
        if (!h.adjacent(perm[e[0]], perm[e[1]])) {
          return;
        }
      }
      out.add(perm.clone());
      return;
    }
    for (int v = 0; v < perm.length; v++) {
      if (!used[v]) {
        used[v] = true;
        perm[i] = v;
        permute(perm, used, i + 1, h, out);
        used[v] = false;
      }
    }
  }
}
