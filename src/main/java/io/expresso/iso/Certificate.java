package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphBuilder;
import java.util.Arrays;

/**
 * A complete isomorphism invariant of a vertex-coloured graph: its colour values in canonical
 * vertex order and the adjacency rows of its canonical form. Two coloured graphs are isomorphic
 * (by a bijection preserving colour <em>values</em>) iff their certificates are equal.
 */
public final class Certificate {

  private final int n;
  private final long[] colours;
  private final long[] rows;
  private final int hash;

  Certificate(int n, long[] colours, long[] rows) {
    this.n = n;
    this.colours = colours;
    this.rows = rows;
    this.hash = 31 * (31 * n + Arrays.hashCode(colours)) + Arrays.hashCode(rows);
  }

  public int n() {
    return n;
  }

  /** The canonical form as a graph: vertex i is the vertex at canonical position i. */
  public Graph canonicalGraph() {
    int words = Math.max(1, (n + 63) >>> 6);
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        if ((rows[u * words + (v >>> 6)] & (1L << v)) != 0) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** Colour values in canonical vertex order (non-decreasing), a copy. */
  public long[] colours() {
    return colours.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Certificate c && c.hash == hash && c.n == n && Arrays.equals(c.rows, rows)
        && Arrays.equals(c.colours, colours);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  /** Canonical graph6, followed by the colour values when the graph is not uniformly coloured. */
  @Override
  public String toString() {
    String g6 = Graph6.encode(canonicalGraph());
    boolean uniform = colours.length == 0 || colours[0] == colours[colours.length - 1];
    return uniform ? g6 : g6 + " " + Arrays.toString(colours);
  }
}
