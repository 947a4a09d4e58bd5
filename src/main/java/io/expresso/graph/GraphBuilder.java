package io.expresso.graph;

import java.util.Arrays;

/**
 * Collects the edges of a simple undirected graph and builds an immutable {@link Graph}.
 *
 * <p>Rejects what a simple graph cannot hold, each with its own message: self-loops, duplicate
 * edges, vertices out of range, and more than {@link Graph#MAX_VERTICES} vertices.
 */
public final class GraphBuilder {

  private final int n;
  private int[] us = new int[16];
  private int[] vs = new int[16];
  private int size;
  private final long[] seen; // bitset rows used to detect duplicates while building

  public GraphBuilder(int n) {
    if (n < 0) {
      throw new GraphFormatException("negative vertex count " + n);
    }
    if (n > Graph.MAX_VERTICES) {
      throw new GraphFormatException(
          "graph has " + n + " vertices, more than the limit of " + Graph.MAX_VERTICES);
    }
    this.n = n;
    int words = Math.max(1, (n + 63) >>> 6);
    this.seen = new long[n * words];
  }

  public int n() {
    return n;
  }

  /** True if {u,v} was already added. */
  public boolean hasEdge(int u, int v) {
    checkVertex(u);
    checkVertex(v);
    int words = Math.max(1, (n + 63) >>> 6);
    return (seen[u * words + (v >>> 6)] & (1L << v)) != 0;
  }

  /**
   * Adds the undirected edge {u,v}.
   *
   * @throws GraphFormatException for a self-loop, a duplicate edge or a vertex out of range
   */
  public GraphBuilder addEdge(int u, int v) {
    checkVertex(u);
    checkVertex(v);
    if (u == v) {
      throw new GraphFormatException("self-loop at vertex " + u);
    }
    if (hasEdge(u, v)) {
      throw new GraphFormatException("duplicate edge {" + Math.min(u, v) + ", " + Math.max(u, v) + "}");
    }
    int words = Math.max(1, (n + 63) >>> 6);
    seen[u * words + (v >>> 6)] |= 1L << v;
    seen[v * words + (u >>> 6)] |= 1L << u;
    if (size == us.length) {
      us = Arrays.copyOf(us, size * 2);
      vs = Arrays.copyOf(vs, size * 2);
    }
    us[size] = u;
    vs[size] = v;
    size++;
    return this;
  }

  private void checkVertex(int v) {
    if (v < 0 || v >= n) {
      throw new GraphFormatException("vertex " + v + " out of range 0.." + (n - 1));
    }
  }

  public Graph build() {
    int[] offsets = new int[n + 1];
    for (int e = 0; e < size; e++) {
      offsets[us[e] + 1]++;
      offsets[vs[e] + 1]++;
    }
    for (int v = 0; v < n; v++) {
      offsets[v + 1] += offsets[v];
    }
    int[] fill = Arrays.copyOf(offsets, n);
    int[] targets = new int[2 * size];
    for (int e = 0; e < size; e++) {
      targets[fill[us[e]]++] = vs[e];
      targets[fill[vs[e]]++] = us[e];
    }
    for (int v = 0; v < n; v++) {
      Arrays.sort(targets, offsets[v], offsets[v + 1]);
    }
    return new Graph(n, offsets, targets);
  }
}
