package io.expresso.count;

import io.expresso.graph.Graph;

/**
 * Exact counts of induced copies of a {@link Pattern}: for the whole graph, per node, and per node
 * and orbit. A copy is a vertex subset S with G[S] isomorphic to the pattern.
 *
 * <p>Per-node convention: the count of node v is the number of induced copies that contain v (so
 * the per-node counts sum to k times the graph count). The orbit-resolved variant splits that
 * number by v's degree inside the copy, which for all eight patterns identifies v's automorphism
 * orbit (e.g. centre versus leaf of a 3-star, tail versus triangle vertices of a tailed triangle).
 */
public final class InducedCounts {

  private InducedCounts() {}

  /** The number of induced copies of {@code p} in {@code g}. */
  public static long count(Graph g, Pattern p) {
    long[] total = {0};
    ConnectedSubsets.forEach(g, p.k(), (vertices, mask) -> {
      if (Pattern.classify(p.k(), mask) == p) {
        total[0]++;
      }
    });
    return total[0];
  }

  /** Counts of all patterns in one pass per pattern size, indexed by {@link Pattern#ordinal()}. */
  public static long[] countAll(Graph g) {
    long[] out = new long[Pattern.values().length];
    for (int k = 3; k <= 4; k++) {
      int kk = k;
      ConnectedSubsets.forEach(g, k, (vertices, mask) -> {
        Pattern p = Pattern.classify(kk, mask);
        if (p != null) {
          out[p.ordinal()]++;
        }
      });
    }
    return out;
  }

  /** For each node, the number of induced copies of {@code p} containing it. */
  public static long[] perNode(Graph g, Pattern p) {
    long[] out = new long[g.n()];
    ConnectedSubsets.forEach(g, p.k(), (vertices, mask) -> {
      if (Pattern.classify(p.k(), mask) == p) {
        for (int v : vertices) {
          out[v]++;
        }
      }
    });
    return out;
  }

  /**
   * {@code [v][d]}: the number of induced copies of {@code p} that contain node v with degree d
   * inside the copy ({@code d < p.k()}). Summing over d gives {@link #perNode}.
   */
  public static long[][] perNodeOrbits(Graph g, Pattern p) {
    long[][] out = new long[g.n()][p.k()];
    ConnectedSubsets.forEach(g, p.k(), (vertices, mask) -> {
      if (Pattern.classify(p.k(), mask) == p) {
        int[] deg = Pattern.degrees(p.k(), mask);
        for (int a = 0; a < vertices.length; a++) {
          out[vertices[a]][deg[a]]++;
        }
      }
    });
    return out;
  }
}
