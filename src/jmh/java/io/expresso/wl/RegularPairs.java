package io.expresso.wl;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The benchmark workload: 100 pairs of regular graphs on 16–36 vertices, shaped like BREC's
 * Regular category. 50 "simple regular" pairs: two random d-regular graphs with the same n and d
 * (d = 3..6). 50 "strongly regular" pairs with equal parameters, which 2-FWL cannot separate, so
 * every one runs to the stable partition and through the exact stability check: Shrikhande vs the
 * 4×4 rook's graph, their complements, and Latin-square graphs of non-isotopic squares of orders
 * 5 and 6 (n = 25, 36), each pair under fresh random relabellings. Deterministic (fixed seed).
 */
final class RegularPairs {

  private RegularPairs() {}

  static List<Graph[]> generate() {
    Random rnd = new Random(2026_11_22L);
    List<Graph[]> pairs = new ArrayList<>();
    int[] degrees = {3, 4, 5, 6};
    while (pairs.size() < 50) {
      int n = 16 + rnd.nextInt(21);
      int d = degrees[rnd.nextInt(degrees.length)];
      if ((n * d) % 2 == 0) {
        pairs.add(new Graph[] {randomRegular(rnd, n, d), randomRegular(rnd, n, d)});
      }
    }
    Graph[][] srg = {
      {shrikhande(), rook4x4()},
      {shrikhande().complement(), rook4x4().complement()},
      {latinSquareGraph(cyclic(5)), latinSquareGraph(NON_GROUP_5)},
      {latinSquareGraph(cyclic(6)), latinSquareGraph(S3_TABLE)},
    };
    for (int i = 0; pairs.size() < 100; i++) {
      Graph[] p = srg[i % srg.length];
      pairs.add(new Graph[] {relabel(rnd, p[0]), relabel(rnd, p[1])});
    }
    return pairs;
  }

  /**
   * A Latin square of order 5 that violates the quadrangle criterion, so it is isotopic to no
   * group table (in particular not to Z₅'s).
   */
  static final int[][] NON_GROUP_5 = {
    {2, 0, 3, 1, 4}, {3, 1, 2, 4, 0}, {1, 4, 0, 2, 3}, {0, 2, 4, 3, 1}, {4, 3, 1, 0, 2},
  };

  /** The multiplication table of the symmetric group S₃ (not isotopic to Z₆'s). */
  static final int[][] S3_TABLE = s3Table();

  private static int[][] s3Table() {
    int[][] perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int[][] t = new int[6][6];
    for (int a = 0; a < 6; a++) {
      for (int b = 0; b < 6; b++) {
        int[] c = new int[3];
        for (int i = 0; i < 3; i++) {
          c[i] = perms[a][perms[b][i]];
        }
        for (int k = 0; k < 6; k++) {
          if (java.util.Arrays.equals(perms[k], c)) {
            t[a][b] = k;
          }
        }
      }
    }
    return t;
  }

  static int[][] cyclic(int m) {
    int[][] t = new int[m][m];
    for (int r = 0; r < m; r++) {
      for (int c = 0; c < m; c++) {
        t[r][c] = (r + c) % m;
      }
    }
    return t;
  }

  /** Cells of the square; adjacent when they share a row, a column or a symbol. */
  static Graph latinSquareGraph(int[][] square) {
    int m = square.length;
    GraphBuilder b = new GraphBuilder(m * m);
    for (int u = 0; u < m * m; u++) {
      for (int v = u + 1; v < m * m; v++) {
        if (u / m == v / m || u % m == v % m || square[u / m][u % m] == square[v / m][v % m]) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

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

  static Graph shrikhande() {
    GraphBuilder b = new GraphBuilder(16);
    for (int u = 0; u < 16; u++) {
      for (int v = u + 1; v < 16; v++) {
        int da = Math.floorMod(u / 4 - v / 4, 4);
        int db = Math.floorMod(u % 4 - v % 4, 4);
        if ((da == 0 && db % 2 == 1) || (db == 0 && da % 2 == 1) || (da == db && da % 2 == 1)) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  static Graph randomRegular(Random rnd, int n, int d) {
    while (true) {
      int[] points = new int[n * d];
      for (int i = 0; i < points.length; i++) {
        points[i] = i / d;
      }
      for (int i = points.length - 1; i > 0; i--) {
        int j = rnd.nextInt(i + 1);
        int t = points[i];
        points[i] = points[j];
        points[j] = t;
      }
      GraphBuilder b = new GraphBuilder(n);
      boolean simple = true;
      for (int i = 0; i < points.length && simple; i += 2) {
        if (points[i] == points[i + 1] || b.hasEdge(points[i], points[i + 1])) {
          simple = false;
        } else {
          b.addEdge(points[i], points[i + 1]);
        }
      }
      if (simple) {
        return b.build();
      }
    }
  }

  static Graph relabel(Random rnd, Graph g) {
    int n = g.n();
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return g.relabel(p);
  }
}
