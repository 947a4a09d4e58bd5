package io.expresso.count;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;

/**
 * The reference update of Campi et al., Prop. 5.2: C(G̃) = C(G) + C(G̃_S) − C(G_S), with S the
 * ego-net of radius diam(pattern) around i in the graph that contains the edge {i, j} (Prop. 5.1:
 * it holds every copy through i and j, before and after the flip). Both sides are recounted with
 * {@link InducedCounts}; slower than {@link DeltaFlipCounter}, kept as its independent check.
 */
public final class EgoNetFlipCounter implements FlipCounter {

  @Override
  public long countAfterFlip(MutableGraph g, Pattern p, long count, int i, int j) {
    if (i == j || i < 0 || j < 0 || i >= g.n() || j >= g.n()) {
      throw new IllegalArgumentException("cannot flip {" + i + ", " + j + "} in a graph on " + g.n() + " vertices");
    }
    boolean present = g.adjacent(i, j);
    int[] ego = egoWithEdge(g, i, j, p.diameter());
    long withEdge = InducedCounts.count(induced(g, ego, i, j, true), p);
    long withoutEdge = InducedCounts.count(induced(g, ego, i, j, false), p);
    return present ? count + withoutEdge - withEdge : count + withEdge - withoutEdge;
  }

  /** Vertices within distance {@code radius} of i in g with {i, j} forced present (BFS order). */
  static int[] egoWithEdge(MutableGraph g, int i, int j, int radius) {
    int n = g.n();
    int[] dist = new int[n];
    java.util.Arrays.fill(dist, -1);
    int[] order = new int[n];
    int head = 0;
    int tail = 0;
    dist[i] = 0;
    order[tail++] = i;
    while (head < tail) {
      int v = order[head++];
      if (dist[v] == radius) {
        continue;
      }
      for (int u = 0; u < n; u++) {
        boolean edge = u != v && (g.adjacent(v, u) || (v == i && u == j) || (v == j && u == i));
        if (edge && dist[u] < 0) {
          dist[u] = dist[v] + 1;
          order[tail++] = u;
        }
      }
    }
    return java.util.Arrays.copyOf(order, tail);
  }

  private static Graph induced(MutableGraph g, int[] vertices, int i, int j, boolean edgePresent) {
    GraphBuilder b = new GraphBuilder(vertices.length);
    for (int a = 0; a < vertices.length; a++) {
      for (int c = a + 1; c < vertices.length; c++) {
        int u = vertices[a];
        int v = vertices[c];
        boolean isPair = (u == i && v == j) || (u == j && v == i);
        if (isPair ? edgePresent : g.adjacent(u, v)) {
          b.addEdge(a, c);
        }
      }
    }
    return b.build();
  }
}
