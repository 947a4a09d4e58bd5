package io.expresso.count;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;

/**
 * A mutable simple graph on bitset rows, the working copy of an attack: flipping an edge is O(1)
 * and an immutable {@link Graph} is built only when a candidate is materialised.
 */
public final class MutableGraph {

  private final int n;
  private final int words;
  private final long[] rows;
  private final int[] degree;
  private int m;

  private MutableGraph(int n, int words, long[] rows, int[] degree, int m) {
    this.n = n;
    this.words = words;
    this.rows = rows;
    this.degree = degree;
    this.m = m;
  }

  /** A working copy of {@code g}. */
  public static MutableGraph of(Graph g) {
    int[] degree = new int[g.n()];
    for (int v = 0; v < g.n(); v++) {
      degree[v] = g.degree(v);
    }
    return new MutableGraph(g.n(), g.words(), g.bitRows().clone(), degree, g.m());
  }

  /** An independent copy. */
  public MutableGraph copy() {
    return new MutableGraph(n, words, rows.clone(), degree.clone(), m);
  }

  public int n() {
    return n;
  }

  /** Number of edges. */
  public int m() {
    return m;
  }

  /** 64-bit words per row. */
  public int words() {
    return words;
  }

  /** Bitset rows, laid out as in {@link Graph#bitRows()}; shared, read-only for callers. */
  long[] rows() {
    return rows;
  }

  public int degree(int v) {
    return degree[v];
  }

  public boolean adjacent(int u, int v) {
    return (rows[u * words + (v >>> 6)] >>> v & 1L) != 0;
  }

  /**
   * Adds edge {u, v} if absent, removes it if present.
   *
   * @throws IllegalArgumentException for a self-loop or a vertex out of range
   */
  public void flip(int u, int v) {
    if (u == v || u < 0 || v < 0 || u >= n || v >= n) {
      throw new IllegalArgumentException("cannot flip {" + u + ", " + v + "} in a graph on " + n + " vertices");
    }
    int delta = adjacent(u, v) ? -1 : 1;
    rows[u * words + (v >>> 6)] ^= 1L << v;
    rows[v * words + (u >>> 6)] ^= 1L << u;
    degree[u] += delta;
    degree[v] += delta;
    m += delta;
  }

  /** The current graph as an immutable {@link Graph}. */
  public Graph toGraph() {
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int w = (u + 1) >>> 6; w < words; w++) {
        long bits = rows[u * words + w];
        while (bits != 0) {
          int v = (w << 6) + Long.numberOfTrailingZeros(bits);
          bits &= bits - 1;
          if (v > u) {
            b.addEdge(u, v);
          }
        }
      }
    }
    return b.build();
  }
}
