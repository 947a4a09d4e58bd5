package io.expresso.graph;

import java.util.Arrays;

/** Breadth-first search distances: single source and all pairs (unweighted). */
public final class ShortestPaths {

  /** Distance marking an unreachable vertex. */
  public static final int UNREACHABLE = -1;

  private ShortestPaths() {}

  /** Distances from {@code source}; {@link #UNREACHABLE} where no path exists. */
  public static int[] bfs(Graph g, int source) {
    int n = g.n();
    int[] dist = new int[n];
    Arrays.fill(dist, UNREACHABLE);
    int[] queue = new int[n];
    int[] off = g.csrOffsets();
    int[] tgt = g.csrTargets();
    int head = 0;
    int tail = 0;
    dist[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
      int v = queue[head++];
      for (int k = off[v]; k < off[v + 1]; k++) {
        int u = tgt[k];
        if (dist[u] == UNREACHABLE) {
          dist[u] = dist[v] + 1;
          queue[tail++] = u;
        }
      }
    }
    return dist;
  }

  /** The n×n distance matrix, by one BFS per vertex. */
  public static int[][] allPairs(Graph g) {
    int[][] d = new int[g.n()][];
    for (int v = 0; v < g.n(); v++) {
      d[v] = bfs(g, v);
    }
    return d;
  }

  /**
   * The diameter: the largest distance between two vertices; {@link #UNREACHABLE} if the graph
   * is disconnected, 0 for graphs with at most one vertex.
   */
  public static int diameter(Graph g) {
    int diam = 0;
    for (int v = 0; v < g.n(); v++) {
      for (int d : bfs(g, v)) {
        if (d == UNREACHABLE) {
          return UNREACHABLE;
        }
        diam = Math.max(diam, d);
      }
    }
    return diam;
  }
}
