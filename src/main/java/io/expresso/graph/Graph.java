package io.expresso.graph;

import java.util.Arrays;

/**
 * An immutable simple undirected graph on vertices {@code 0..n-1}.
 *
 * <p>Two views of the same edge set are kept: CSR neighbour arrays (sorted, for iteration) and one
 * bitset row per vertex (for O(1) adjacency and word-parallel set operations in hot loops). Build
 * graphs with {@link GraphBuilder} or {@link #fromEdges}.
 */
public final class Graph {

  /** Largest vertex count accepted: bitset rows take n²/8 bytes (128 MiB at this limit). */
  public static final int MAX_VERTICES = 1 << 15;

  private final int n;
  private final int[] offsets; // length n+1; neighbours of v are targets[offsets[v] .. offsets[v+1])
  private final int[] targets; // sorted within each vertex
  private final int words; // 64-bit words per bitset row
  private final long[] rows; // row v occupies rows[v*words .. (v+1)*words)

  Graph(int n, int[] offsets, int[] targets) {
    this.n = n;
    this.offsets = offsets;
    this.targets = targets;
    this.words = Math.max(1, (n + 63) >>> 6);
    this.rows = new long[n * words];
    for (int v = 0; v < n; v++) {
      for (int k = offsets[v]; k < offsets[v + 1]; k++) {
        int u = targets[k];
        rows[v * words + (u >>> 6)] |= 1L << u;
      }
    }
  }

  /**
   * A graph from an edge list {@code {u0, v0, u1, v1, ...}}.
   *
   * @throws GraphFormatException on self-loops, duplicate edges or out-of-range vertices
   */
  public static Graph fromEdges(int n, int... endpoints) {
    if (endpoints.length % 2 != 0) {
      throw new IllegalArgumentException("edge list has an odd number of endpoints");
    }
    GraphBuilder b = new GraphBuilder(n);
    for (int i = 0; i < endpoints.length; i += 2) {
      b.addEdge(endpoints[i], endpoints[i + 1]);
    }
    return b.build();
  }

  /** The graph with no edges on {@code n} vertices. */
  public static Graph empty(int n) {
    return new GraphBuilder(n).build();
  }

  public int n() {
    return n;
  }

  /** Number of edges. */
  public int m() {
    return targets.length / 2;
  }

  public int degree(int v) {
    return offsets[v + 1] - offsets[v];
  }

  public boolean adjacent(int u, int v) {
    return (rows[u * words + (v >>> 6)] & (1L << v)) != 0;
  }

  /** The atomic types of ordered vertex pairs: {@link #atomicType} takes values below it. */
  public static final int ATOMIC_TYPES = 3;

  /** The isomorphism type of the ordered pair (u,v): 0 equal, 1 adjacent, 2 neither (2-FWL's and δ-2-LWL's start). */
  public int atomicType(int u, int v) {
    return u == v ? 0 : adjacent(u, v) ? 1 : 2;
  }

  /** A copy of the sorted neighbours of {@code v}. */
  public int[] neighbors(int v) {
    return Arrays.copyOfRange(targets, offsets[v], offsets[v + 1]);
  }

  /** The {@code k}-th smallest neighbour of {@code v}, {@code 0 <= k < degree(v)}. */
  public int neighbor(int v, int k) {
    return targets[offsets[v] + k];
  }

  /**
   * CSR offsets, shared with the graph for allocation-free hot loops: never modify. Neighbours of
   * {@code v} are {@code csrTargets()[csrOffsets()[v] .. csrOffsets()[v+1])}.
   */
  public int[] csrOffsets() {
    return offsets;
  }

  /** CSR targets, shared with the graph: never modify. See {@link #csrOffsets()}. */
  public int[] csrTargets() {
    return targets;
  }

  /** 64-bit words per bitset row. */
  public int words() {
    return words;
  }

  /**
   * Bitset rows, shared with the graph: never modify. Bit {@code u} of row {@code v} is word
   * {@code v*words() + (u >>> 6)}, bit {@code u & 63}.
   */
  public long[] bitRows() {
    return rows;
  }

  /** A copy of row {@code v} as a bitset of {@link #words()} words. */
  public long[] row(int v) {
    return Arrays.copyOfRange(rows, v * words, (v + 1) * words);
  }

  /** Edges as {@code {u, v}} pairs with {@code u < v}, in lexicographic order. */
  public int[][] edges() {
    int[][] out = new int[m()][];
    int e = 0;
    for (int v = 0; v < n; v++) {
      for (int k = offsets[v]; k < offsets[v + 1]; k++) {
        if (targets[k] > v) {
          out[e++] = new int[] {v, targets[k]};
        }
      }
    }
    return out;
  }

  public int minDegree() {
    int d = n == 0 ? 0 : Integer.MAX_VALUE;
    for (int v = 0; v < n; v++) {
      d = Math.min(d, degree(v));
    }
    return d;
  }

  public int maxDegree() {
    int d = 0;
    for (int v = 0; v < n; v++) {
      d = Math.max(d, degree(v));
    }
    return d;
  }

  /** True when every vertex has the same degree. */
  public boolean isRegular() {
    return minDegree() == maxDegree();
  }

  /**
   * The graph with vertex {@code v} renamed {@code perm[v]}: {u,v} is an edge here iff
   * {perm[u], perm[v]} is an edge of the result.
   */
  public Graph relabel(int[] perm) {
    if (perm.length != n) {
      throw new IllegalArgumentException("permutation has " + perm.length + " entries for " + n + " vertices");
    }
    boolean[] seen = new boolean[n];
    for (int p : perm) {
      if (p < 0 || p >= n || seen[p]) {
        throw new IllegalArgumentException("not a permutation of 0.." + (n - 1) + ": " + Arrays.toString(perm));
      }
      seen[p] = true;
    }
    GraphBuilder b = new GraphBuilder(n);
    for (int v = 0; v < n; v++) {
      for (int k = offsets[v]; k < offsets[v + 1]; k++) {
        if (targets[k] > v) {
          b.addEdge(perm[v], perm[targets[k]]);
        }
      }
    }
    return b.build();
  }

  /** The subgraph induced by {@code vertices}; vertex {@code vertices[i]} becomes {@code i}. */
  public Graph induced(int[] vertices) {
    int[] index = new int[n];
    Arrays.fill(index, -1);
    for (int i = 0; i < vertices.length; i++) {
      if (index[vertices[i]] >= 0) {
        throw new IllegalArgumentException("vertex " + vertices[i] + " listed twice");
      }
      index[vertices[i]] = i;
    }
    GraphBuilder b = new GraphBuilder(vertices.length);
    for (int i = 0; i < vertices.length; i++) {
      int v = vertices[i];
      for (int k = offsets[v]; k < offsets[v + 1]; k++) {
        int j = index[targets[k]];
        if (j > i) {
          b.addEdge(i, j);
        }
      }
    }
    return b.build();
  }

  /** The complement graph. */
  public Graph complement() {
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        if (!adjacent(u, v)) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** The same graph with edge {u,v} added if absent or removed if present. */
  public Graph flip(int u, int v) {
    if (u == v) {
      throw new IllegalArgumentException("cannot flip self-loop at vertex " + u);
    }
    GraphBuilder b = new GraphBuilder(n);
    for (int[] e : edges()) {
      if (!((e[0] == u && e[1] == v) || (e[0] == v && e[1] == u))) {
        b.addEdge(e[0], e[1]);
      }
    }
    if (!adjacent(u, v)) {
      b.addEdge(u, v);
    }
    return b.build();
  }

  /** Equality of labelled graphs: the same vertex count and the same edge set. */
  @Override
  public boolean equals(Object o) {
    return o instanceof Graph g && g.n == n && Arrays.equals(g.offsets, offsets) && Arrays.equals(g.targets, targets);
  }

  @Override
  public int hashCode() {
    return 31 * n + Arrays.hashCode(targets);
  }

  @Override
  public String toString() {
    return "Graph(n=" + n + ", m=" + m() + ", g6=" + Graph6.encode(this) + ")";
  }
}
