package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Classical graphs that separate (or fail to separate) the Weisfeiler–Leman hierarchy, built
 * from their textbook definitions: cycles, circulants and CSL graphs, rook's and Shrikhande
 * graphs, triangular and Chang graphs, Latin square graphs, decalin and bicyclopentyl, and
 * Cai–Fürer–Immerman pairs. Every method returns a new {@link Graph}.
 */
public final class Constructions {

  private Constructions() {}

  /** The cycle C_n, {@code n >= 3}. */
  public static Graph cycle(int n) {
    return circulant(n, 1);
  }

  /** The complete graph K_n. */
  public static Graph complete(int n) {
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        b.addEdge(u, v);
      }
    }
    return b.build();
  }

  /**
   * The circulant graph on Z_n: i ~ i ± j (mod n) for every jump j. Jumps are taken mod n,
   * must be non-zero, and may not coincide up to sign.
   */
  public static Graph circulant(int n, int... jumps) {
    if (n < 3) {
      throw new IllegalArgumentException("circulant needs n >= 3, got " + n);
    }
    GraphBuilder b = new GraphBuilder(n);
    for (int j : jumps) {
      int s = Math.floorMod(j, n);
      if (s == 0) {
        throw new IllegalArgumentException("jump " + j + " is 0 mod " + n);
      }
      for (int i = 0; i < n; i++) {
        int k = (i + s) % n;
        if (!b.hasEdge(i, k)) {
          b.addEdge(i, k);
        } else if (2 * s != n) { // for s = n/2 each edge is met twice by design
          throw new IllegalArgumentException("jump " + j + " repeats another jump mod " + n);
        }
      }
    }
    return b.build();
  }

  /**
   * The circular skip link graph CSL(n, r) of Murphy et al. (2019): the cycle C_n plus the chords
   * i ~ i + r (mod n). Murphy et al. use n = 41 and r in {2, 3, 4, 5, 6, 9, 11, 12, 13, 16}; all
   * are 4-regular, so 1-WL cannot tell them apart.
   */
  public static Graph csl(int n, int r) {
    if (r < 2 || 2 * r >= n) {
      throw new IllegalArgumentException("CSL(" + n + ", " + r + ") needs 2 <= r < n/2");
    }
    return circulant(n, 1, r);
  }

  /** The skip lengths of Murphy et al.'s CSL dataset (n = 41). */
  public static final int[] CSL_SKIPS = {2, 3, 4, 5, 6, 9, 11, 12, 13, 16};

  /** The n×n rook's graph K_n □ K_n: cells (r, c) adjacent when they share a row or column. */
  public static Graph rook(int n) {
    GraphBuilder b = new GraphBuilder(n * n);
    for (int u = 0; u < n * n; u++) {
      for (int v = u + 1; v < n * n; v++) {
        if (u / n == v / n || u % n == v % n) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /**
   * The Shrikhande graph: Cayley graph of Z_4 × Z_4 with connection set ±(1,0), ±(0,1), ±(1,1).
   * srg(16, 6, 2, 2) like the 4×4 rook's graph, but not isomorphic to it.
   */
  public static Graph shrikhande() {
    int[][] steps = {{1, 0}, {0, 1}, {1, 1}};
    GraphBuilder b = new GraphBuilder(16);
    for (int x = 0; x < 4; x++) {
      for (int y = 0; y < 4; y++) {
        for (int[] s : steps) {
          int u = 4 * x + y;
          int v = 4 * ((x + s[0]) % 4) + (y + s[1]) % 4;
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /**
   * The triangular graph T(n), the line graph of K_n: vertices are the 2-subsets of {0..n-1},
   * adjacent when they meet. T(8) is srg(28, 12, 6, 4). Vertex numbering: {@link #pairIndex}.
   */
  public static Graph triangular(int n) {
    int[][] pairs = pairsOf(n);
    GraphBuilder b = new GraphBuilder(pairs.length);
    for (int u = 0; u < pairs.length; u++) {
      for (int v = u + 1; v < pairs.length; v++) {
        if (meet(pairs[u], pairs[v])) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /**
   * Chang graph {@code k} (1, 2 or 3): T(8) Seidel-switched with respect to the edge set of a
   * perfect matching 4K_2 (k = 1), an 8-cycle C_8 (k = 2), or C_3 ∪ C_5 (k = 3) in K_8. The three
   * are srg(28, 12, 6, 4), pairwise non-isomorphic and not isomorphic to T(8).
   */
  public static Graph chang(int k) {
    int[][] switchEdges = switch (k) {
      case 1 -> new int[][] {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
      case 2 -> new int[][] {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 0}};
      case 3 -> new int[][] {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 3}};
      default -> throw new IllegalArgumentException("there are three Chang graphs (1..3), not " + k);
    };
    int[][] pairs = pairsOf(8);
    boolean[] inSet = new boolean[pairs.length];
    for (int[] e : switchEdges) {
      inSet[pairIndex(8, e[0], e[1])] = true;
    }
    return seidelSwitch(triangular(8), inSet);
  }

  /**
   * Seidel switching: adjacency between a vertex inside the set and one outside is complemented;
   * adjacency within either side is kept.
   */
  public static Graph seidelSwitch(Graph g, boolean[] set) {
    if (set.length != g.n()) {
      throw new IllegalArgumentException("switching set has " + set.length + " flags for " + g.n() + " vertices");
    }
    GraphBuilder b = new GraphBuilder(g.n());
    for (int u = 0; u < g.n(); u++) {
      for (int v = u + 1; v < g.n(); v++) {
        if (g.adjacent(u, v) != (set[u] != set[v])) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** The index of 2-subset {a, b} of {0..n-1} in lexicographic order, as {@link #triangular} numbers them. */
  public static int pairIndex(int n, int a, int b) {
    int lo = Math.min(a, b);
    int hi = Math.max(a, b);
    if (lo == hi || lo < 0 || hi >= n) {
      throw new IllegalArgumentException("{" + a + ", " + b + "} is not a 2-subset of 0.." + (n - 1));
    }
    return lo * (2 * n - lo - 1) / 2 + (hi - lo - 1);
  }

  private static int[][] pairsOf(int n) {
    int[][] out = new int[n * (n - 1) / 2][];
    int k = 0;
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        out[k++] = new int[] {a, b};
      }
    }
    return out;
  }

  private static boolean meet(int[] p, int[] q) {
    return p[0] == q[0] || p[0] == q[1] || p[1] == q[0] || p[1] == q[1];
  }

  /**
   * The Latin square graph of an n×n Latin square: cells (r, c), adjacent when they share a row,
   * a column or a symbol; srg(n², 3(n−1), n, 6). Squares in different main classes give
   * non-isomorphic graphs (for n >= 5).
   *
   * @throws IllegalArgumentException if {@code square} is not a Latin square on symbols 0..n-1
   */
  public static Graph latinSquareGraph(int[][] square) {
    int n = square.length;
    for (int r = 0; r < n; r++) {
      if (square[r].length != n) {
        throw new IllegalArgumentException("row " + r + " has " + square[r].length + " cells, expected " + n);
      }
      boolean[] inRow = new boolean[n];
      boolean[] inColumn = new boolean[n];
      for (int c = 0; c < n; c++) {
        int s = square[r][c];
        int t = square[c][r];
        if (s < 0 || s >= n || t < 0 || t >= n || inRow[s] || inColumn[t]) {
          throw new IllegalArgumentException("not a Latin square on symbols 0.." + (n - 1) + ": row/column " + r);
        }
        inRow[s] = true;
        inColumn[t] = true;
      }
    }
    GraphBuilder b = new GraphBuilder(n * n);
    for (int u = 0; u < n * n; u++) {
      for (int v = u + 1; v < n * n; v++) {
        int r1 = u / n;
        int c1 = u % n;
        int r2 = v / n;
        int c2 = v % n;
        if (r1 == r2 || c1 == c2 || square[r1][c1] == square[r2][c2]) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** The Cayley table of the cyclic group Z_n, a Latin square. */
  public static int[][] cyclicSquare(int n) {
    int[][] sq = new int[n][n];
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < n; c++) {
        sq[r][c] = (r + c) % n;
      }
    }
    return sq;
  }

  /** The Cayley table of the symmetric group S_3 (elements: 3 rotations, then 3 reflections). */
  public static int[][] s3Square() {
    // Dihedral group of order 6: element k < 3 is rotation r^k, k >= 3 is reflection s·r^(k-3).
    int[][] sq = new int[6][6];
    for (int a = 0; a < 6; a++) {
      for (int b = 0; b < 6; b++) {
        sq[a][b] = dihedralProduct(a, b);
      }
    }
    return sq;
  }

  private static int dihedralProduct(int a, int b) {
    // Elements are s^f r^k; r^k s = s r^(-k), so (s^f1 r^k1)(s^f2 r^k2) = s^(f1+f2) r^(±k1 + k2).
    int f1 = a / 3;
    int k1 = a % 3;
    int f2 = b / 3;
    int k2 = b % 3;
    int k = Math.floorMod((f2 == 1 ? -k1 : k1) + k2, 3);
    return 3 * ((f1 + f2) % 2) + k;
  }

  /**
   * A Latin square of order 5 that is not isotopic to a group table (Z_5 is the only group of
   * order 5), so its Latin square graph differs from that of {@link #cyclicSquare}(5).
   */
  public static int[][] nonGroupSquare5() {
    return new int[][] {
      {0, 1, 2, 3, 4},
      {1, 3, 0, 4, 2},
      {2, 4, 3, 1, 0},
      {3, 0, 4, 2, 1},
      {4, 2, 1, 0, 3},
    };
  }

  /** Decalin (two fused hexagons): the 10-cycle plus the chord {0, 5}. */
  public static Graph decalin() {
    GraphBuilder b = new GraphBuilder(10);
    for (int i = 0; i < 10; i++) {
      b.addEdge(i, (i + 1) % 10);
    }
    b.addEdge(0, 5);
    return b.build();
  }

  /** Bicyclopentyl (two pentagons joined by an edge); 1-WL-equivalent to decalin. */
  public static Graph bicyclopentyl() {
    GraphBuilder b = new GraphBuilder(10);
    for (int i = 0; i < 5; i++) {
      b.addEdge(i, (i + 1) % 5);
      b.addEdge(5 + i, 5 + (i + 1) % 5);
    }
    b.addEdge(0, 5);
    return b.build();
  }

  /** The triangular prism K_3 □ K_2 (treewidth 3). */
  public static Graph prism() {
    return Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3, 0, 3, 1, 4, 2, 5);
  }

  /** The complete bipartite graph K_{a,b}: parts {0..a-1} and {a..a+b-1}. */
  public static Graph completeBipartite(int a, int b) {
    GraphBuilder g = new GraphBuilder(a + b);
    for (int u = 0; u < a; u++) {
      for (int v = a; v < a + b; v++) {
        g.addEdge(u, v);
      }
    }
    return g.build();
  }

  /**
   * The Cai–Fürer–Immerman graph over a connected base graph, without vertex colours. Each base
   * vertex v of degree d becomes 2^(d−1) middle vertices m(v, S), one per even-size subset S of
   * its incident edges, and two end vertices a(v, e, 0), a(v, e, 1) per incident edge e; m(v, S)
   * is adjacent to a(v, e, 1) for e in S and to a(v, e, 0) for e not in S. A base edge e = {u, v}
   * joins a(u, e, i) to a(v, e, i), or to a(v, e, 1 − i) when e is twisted. The graphs with an
   * even and an odd number of twisted edges are non-isomorphic; they are indistinguishable by
   * k-dimensional (folklore) WL when the base graph has treewidth greater than k.
   *
   * @param base a connected graph with minimum degree at least 2
   * @param twisted whether to twist the base's first edge (in {@link Graph#edges()} order)
   */
  public static Graph cfi(Graph base, boolean twisted) {
    int n = base.n();
    if (n == 0 || base.minDegree() < 2) {
      throw new IllegalArgumentException("CFI base graph needs minimum degree >= 2");
    }
    if (base.maxDegree() > 20) {
      throw new IllegalArgumentException("CFI base graph degree " + base.maxDegree() + " is too large (2^(d-1) middle vertices)");
    }
    // Vertex numbering: per base vertex, its middle vertices then its 2·d end vertices.
    int[] start = new int[n + 1];
    for (int v = 0; v < n; v++) {
      int d = base.degree(v);
      start[v + 1] = start[v] + (1 << (d - 1)) + 2 * d;
    }
    GraphBuilder b = new GraphBuilder(start[n]);
    for (int v = 0; v < n; v++) {
      int d = base.degree(v);
      int middles = 0;
      for (int mask = 0; mask < 1 << d; mask++) {
        if (Integer.bitCount(mask) % 2 != 0) {
          continue;
        }
        int m = start[v] + middles++;
        for (int k = 0; k < d; k++) {
          b.addEdge(m, endVertex(start, base, v, k, (mask >> k) & 1));
        }
      }
    }
    int[][] edges = base.edges();
    for (int e = 0; e < edges.length; e++) {
      int u = edges[e][0];
      int v = edges[e][1];
      int ku = Arrays.binarySearch(base.neighbors(u), v);
      int kv = Arrays.binarySearch(base.neighbors(v), u);
      boolean twist = twisted && e == 0;
      for (int i = 0; i < 2; i++) {
        b.addEdge(endVertex(start, base, u, ku, i), endVertex(start, base, v, kv, twist ? 1 - i : i));
      }
    }
    return b.build();
  }

  /** a(v, e_k, bit), where e_k is the edge to v's k-th neighbour. */
  private static int endVertex(int[] start, Graph base, int v, int k, int bit) {
    int d = base.degree(v);
    return start[v] + (1 << (d - 1)) + 2 * k + bit;
  }

  /** Both graphs of the CFI pair over {@code base}: untwisted, then twisted. */
  public static List<Graph> cfiPair(Graph base) {
    List<Graph> out = new ArrayList<>(2);
    out.add(cfi(base, false));
    out.add(cfi(base, true));
    return out;
  }
}
