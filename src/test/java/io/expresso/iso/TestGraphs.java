package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Graph families for the isomorphism tests, built inline. */
final class TestGraphs {

  private TestGraphs() {}

  static Graph erdosRenyi(int n, double p, Random rnd) {
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        if (rnd.nextDouble() < p) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** A uniformly random relabelling of {@code g}. */
  static Graph shuffle(Graph g, Random rnd) {
    return g.relabel(permutation(g.n(), rnd));
  }

  static int[] permutation(int n, Random rnd) {
    int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    return perm;
  }

  /** A random d-regular graph on n vertices (configuration model, retried until simple). */
  static Graph randomRegular(int n, int d, Random rnd) {
    if ((n * d) % 2 != 0 || d >= n) {
      throw new IllegalArgumentException("no " + d + "-regular graph on " + n + " vertices");
    }
    while (true) {
      int[] stubs = new int[n * d];
      for (int i = 0; i < stubs.length; i++) {
        stubs[i] = i / d;
      }
      int[] perm = permutation(stubs.length, rnd);
      GraphBuilder b = new GraphBuilder(n);
      boolean ok = true;
      for (int i = 0; i < stubs.length && ok; i += 2) {
        int u = stubs[perm[i]];
        int v = stubs[perm[i + 1]];
        if (u == v || b.hasEdge(u, v)) {
          ok = false;
        } else {
          b.addEdge(u, v);
        }
      }
      if (ok) {
        return b.build();
      }
    }
  }

  /** The 4x4 rook's graph (line graph of K_{4,4}), srg(16,6,2,2). */
  static Graph rook4x4() {
    GraphBuilder b = new GraphBuilder(16);
    for (int u = 0; u < 16; u++) {
      for (int v = u + 1; v < 16; v++) {
        if (u / 4 == v / 4 || u % 4 == v % 4) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** The Shrikhande graph: Cayley graph of Z4xZ4 with connection set ±(1,0), ±(0,1), ±(1,1); srg(16,6,2,2). */
  static Graph shrikhande() {
    GraphBuilder b = new GraphBuilder(16);
    int[][] gens = {{1, 0}, {0, 1}, {1, 1}};
    for (int x = 0; x < 4; x++) {
      for (int y = 0; y < 4; y++) {
        for (int[] s : gens) {
          int u = 4 * x + y;
          int v = 4 * ((x + s[0]) % 4) + (y + s[1]) % 4;
          if (!b.hasEdge(u, v)) {
            b.addEdge(u, v);
          }
        }
      }
    }
    return b.build();
  }

  /** Paley graph on q vertices (q prime, q = 1 mod 4). */
  static Graph paley(int q) {
    boolean[] square = new boolean[q];
    for (int x = 1; x < q; x++) {
      square[(x * x) % q] = true;
    }
    GraphBuilder b = new GraphBuilder(q);
    for (int u = 0; u < q; u++) {
      for (int v = u + 1; v < q; v++) {
        if (square[v - u]) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /**
   * The CFI graph over {@code base} (Cai–Fürer–Immerman): per vertex v of degree d, one "middle"
   * vertex per even subset of its incident edges and two "end" vertices per incident edge; end
   * vertices of an edge are joined straight, or crossed for the edges listed in {@code twisted}.
   * Graphs with an even number of twists are isomorphic to the untwisted one; odd ones are not.
   */
  static Graph cfi(Graph base, int... twisted) {
    int[][] edges = base.edges();
    int n = base.n();
    List<int[]> incident = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      List<Integer> inc = new ArrayList<>();
      for (int e = 0; e < edges.length; e++) {
        if (edges[e][0] == v || edges[e][1] == v) {
          inc.add(e);
        }
      }
      incident.add(inc.stream().mapToInt(Integer::intValue).toArray());
    }
    // Vertex numbering.
    int[] middleStart = new int[n];
    int[] endStart = new int[n];
    int total = 0;
    for (int v = 0; v < n; v++) {
      int d = incident.get(v).length;
      middleStart[v] = total;
      total += 1 << Math.max(0, d - 1);
      endStart[v] = total;
      total += 2 * d;
    }
    GraphBuilder b = new GraphBuilder(total);
    for (int v = 0; v < n; v++) {
      int d = incident.get(v).length;
      int m = 0;
      for (int s = 0; s < (1 << d); s++) {
        if (Integer.bitCount(s) % 2 != 0) {
          continue;
        }
        int middle = middleStart[v] + m++;
        for (int i = 0; i < d; i++) {
          int bit = (s >>> i) & 1;
          b.addEdge(middle, endStart[v] + 2 * i + bit);
        }
      }
    }
    java.util.Set<Integer> twist = new java.util.HashSet<>();
    for (int t : twisted) {
      twist.add(t);
    }
    for (int e = 0; e < edges.length; e++) {
      int u = edges[e][0];
      int v = edges[e][1];
      int iu = indexOf(incident.get(u), e);
      int iv = indexOf(incident.get(v), e);
      for (int bit = 0; bit < 2; bit++) {
        int other = twist.contains(e) ? 1 - bit : bit;
        b.addEdge(endStart[u] + 2 * iu + bit, endStart[v] + 2 * iv + other);
      }
    }
    return b.build();
  }

  private static int indexOf(int[] a, int x) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == x) {
        return i;
      }
    }
    throw new IllegalStateException();
  }

  static Graph complete(int n) {
    return Graph.fromEdges(n, allPairs(n));
  }

  private static int[] allPairs(int n) {
    int[] e = new int[n * (n - 1)];
    int k = 0;
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        e[k++] = u;
        e[k++] = v;
      }
    }
    return e;
  }

  /** The Petersen graph (a 3-regular base for CFI graphs). */
  static Graph petersen() {
    return Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 5, 1, 6, 2, 7, 3, 8, 4, 9,
        5, 7, 7, 9, 9, 6, 6, 8, 8, 5);
  }

  /** Brute-force isomorphism test over all bijections (small n only). */
  static boolean bruteForceIsomorphic(Graph g, Graph h, long[] cg, long[] ch) {
    if (g.n() != h.n() || g.m() != h.m()) {
      return false;
    }
    int[] map = new int[g.n()];
    boolean[] used = new boolean[g.n()];
    return extend(g, h, cg, ch, map, used, 0);
  }

  private static boolean extend(Graph g, Graph h, long[] cg, long[] ch, int[] map, boolean[] used, int v) {
    if (v == g.n()) {
      return true;
    }
    for (int w = 0; w < h.n(); w++) {
      if (used[w] || cg[v] != ch[w]) {
        continue;
      }
      boolean ok = true;
      for (int u = 0; u < v && ok; u++) {
        ok = g.adjacent(u, v) == h.adjacent(map[u], w);
      }
      if (ok) {
        map[v] = w;
        used[w] = true;
        if (extend(g, h, cg, ch, map, used, v + 1)) {
          return true;
        }
        used[w] = false;
      }
    }
    return false;
  }
}
