package io.expresso.count;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Exact induced substructure counts per edge and edge orbit, over every connected graph on 3 and
 * 4 vertices (the eight {@link Pattern}s): the structural identifiers of GSN-e (Bouritsas et al.
 * 2022) with BREC's setting, {@code id_type all_simple_graphs, k 4, induced, id_scope local}.
 *
 * <p>Column {@code c} of an edge counts the induced copies that contain the edge in edge orbit c.
 * An edge's orbit inside a copy is identified by the sorted pair of its endpoints' degrees in the
 * copy, which for all eight patterns separates the automorphism orbits of edges (e.g. the chord of
 * a diamond from its rim, the tail of a tailed triangle from its two kinds of triangle edge);
 * {@code EdgeOrbitCountsTest} checks that against the patterns' automorphisms.
 */
public final class EdgeOrbitCounts {

  /** One column: a pattern and its endpoints' in-copy degrees (lo ≤ hi). */
  public record Orbit(Pattern pattern, int lowDegree, int highDegree) {
    public String name() {
      return pattern.cliName() + "(" + lowDegree + "," + highDegree + ")";
    }
  }

  private static final List<Orbit> ORBITS = orbits();

  private EdgeOrbitCounts() {}

  /** The columns, in the order of {@link #perDirectedEdge}: 12 for the eight patterns. */
  public static List<Orbit> columns() {
    return ORBITS;
  }

  /**
   * {@code [e][c]} for every directed edge e in the graph's CSR order (edge e = the e-th entry of
   * {@link Graph#csrTargets()}); both directions of an edge carry the same counts.
   */
  public static long[][] perDirectedEdge(Graph g) {
    int[] offsets = g.csrOffsets();
    int[] targets = g.csrTargets();
    long[][] out = new long[targets.length][ORBITS.size()];
    for (int k = 3; k <= 4; k++) {
      int kk = k;
      ConnectedSubsets.forEach(g, k, (vertices, mask) -> {
        Pattern p = Pattern.classify(kk, mask);
        int[] deg = Pattern.degrees(kk, mask);
        for (int a = 0; a < kk; a++) {
          for (int b = a + 1; b < kk; b++) {
            if ((mask >>> Pattern.pairBit(kk, a, b) & 1) == 0) {
              continue;
            }
            int c = column(p, Math.min(deg[a], deg[b]), Math.max(deg[a], deg[b]));
            int u = vertices[a];
            int v = vertices[b];
            out[edge(offsets, targets, u, v)][c]++;
            out[edge(offsets, targets, v, u)][c]++;
          }
        }
      });
    }
    return out;
  }

  /** The position of v in u's sorted CSR row. */
  private static int edge(int[] offsets, int[] targets, int u, int v) {
    return Arrays.binarySearch(targets, offsets[u], offsets[u + 1], v);
  }

  private static int column(Pattern p, int lo, int hi) {
    for (int c = 0; c < ORBITS.size(); c++) {
      Orbit o = ORBITS.get(c);
      if (o.pattern == p && o.lowDegree == lo && o.highDegree == hi) {
        return c;
      }
    }
    throw new IllegalStateException("no edge orbit " + p + "(" + lo + "," + hi + ")");
  }

  /** Every (pattern, degree pair) that an edge of a pattern's own graph shows, in pattern order. */
  private static List<Orbit> orbits() {
    List<Orbit> out = new ArrayList<>();
    for (Pattern p : Pattern.values()) {
      Graph g = p.graph();
      for (int[] e : g.edges()) {
        int du = g.degree(e[0]);
        int dv = g.degree(e[1]);
        Orbit o = new Orbit(p, Math.min(du, dv), Math.max(du, dv));
        if (!out.contains(o)) {
          out.add(o);
        }
      }
    }
    return List.copyOf(out);
  }
}
