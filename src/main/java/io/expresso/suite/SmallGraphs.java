package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphBuilder;
import io.expresso.iso.Canonizer;
import io.expresso.iso.Certificate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every graph on n vertices up to isomorphism, by vertex addition: each graph on n − 1 vertices
 * gains a new vertex of minimum degree, joined to each subset of the old vertices that keeps its
 * degree minimal, and the results are deduplicated by their canonical certificates ({@link
 * Canonizer}). Every graph on n vertices arises this way (delete one of its minimum-degree
 * vertices), so the list is complete; certificates make it free of repeats. Results are canonical
 * forms sorted by graph6 string, hence deterministic.
 */
public final class SmallGraphs {

  /** Largest n enumerated: 12,346 graphs on 8 vertices; 9 would be 274,668. */
  public static final int MAX_N = 8;

  private SmallGraphs() {}

  /** All graphs on {@code n} vertices, one canonical representative per isomorphism class. */
  public static List<Graph> all(int n) {
    if (n < 0 || n > MAX_N) {
      throw new IllegalArgumentException("small graphs are enumerated for 0 <= n <= " + MAX_N + ", not " + n);
    }
    List<Graph> level = List.of(Graph.empty(0));
    for (int k = 1; k <= n; k++) {
      level = extend(level, k);
    }
    return level;
  }

  private static List<Graph> extend(List<Graph> smaller, int n) {
    Set<Certificate> seen = new HashSet<>();
    List<Graph> out = new ArrayList<>();
    for (Graph g : smaller) {
      int[][] edges = g.edges();
      for (int subset = 0; subset < 1 << (n - 1); subset++) {
        if (!newVertexHasMinimumDegree(g, subset)) {
          continue;
        }
        GraphBuilder b = new GraphBuilder(n);
        for (int[] e : edges) {
          b.addEdge(e[0], e[1]);
        }
        for (int v = 0; v < n - 1; v++) {
          if ((subset >> v & 1) != 0) {
            b.addEdge(v, n - 1);
          }
        }
        Certificate c = Canonizer.certificate(b.build());
        if (seen.add(c)) {
          out.add(c.canonicalGraph());
        }
      }
    }
    out.sort(Comparator.comparing(Graph6::encode));
    return out;
  }

  /** Whether a new vertex joined to {@code subset} of {@code g}'s vertices has minimum degree. */
  private static boolean newVertexHasMinimumDegree(Graph g, int subset) {
    int d = Integer.bitCount(subset);
    for (int v = 0; v < g.n(); v++) {
      int dv = g.degree(v) + (subset >> v & 1);
      if (dv < d) {
        return false;
      }
    }
    return true;
  }
}
