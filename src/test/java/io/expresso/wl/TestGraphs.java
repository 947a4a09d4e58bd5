package io.expresso.wl;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import java.util.Random;

/** Small named graphs and random graphs for the WL tests, built inline. */
final class TestGraphs {

  private TestGraphs() {}

  /** Circulant skip-link graph: the cycle on n vertices plus chords i ~ i+skip. */
  static Graph csl(int n, int skip) {
    GraphBuilder b = new GraphBuilder(n);
    for (int i = 0; i < n; i++) {
      b.addEdge(i, (i + 1) % n);
    }
    for (int i = 0; i < n; i++) {
      int j = (i + skip) % n;
      if (!b.hasEdge(i, j)) {
        b.addEdge(i, j);
      }
    }
    return b.build();
  }

  /** Decalin: two hexagons sharing the edge {4,5}. */
  static Graph decalin() {
    return Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0, 5, 6, 6, 7, 7, 8, 8, 9, 9, 4);
  }

  /** Bicyclopentyl: two pentagons joined by the edge {0,5}. */
  static Graph bicyclopentyl() {
    return Graph.fromEdges(10, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 5, 6, 6, 7, 7, 8, 8, 9, 9, 5, 0, 5);
  }

  /** The 4×4 rook's graph: same row or same column; srg(16,6,2,2). */
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

  /** The Shrikhande graph: Z4×Z4, differences ±(1,0), ±(0,1), ±(1,1); srg(16,6,2,2). */
  static Graph shrikhande() {
    GraphBuilder b = new GraphBuilder(16);
    for (int u = 0; u < 16; u++) {
      for (int v = u + 1; v < 16; v++) {
        int da = Math.floorMod(u / 4 - v / 4, 4);
        int db = Math.floorMod(u % 4 - v % 4, 4);
        boolean adj = (da == 0 && (db == 1 || db == 3)) || (db == 0 && (da == 1 || da == 3))
            || (da == db && (da == 1 || da == 3));
        if (adj) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /** The 6-cycle and two disjoint triangles: 2-regular on 6 vertices, 1-WL-equivalent. */
  static Graph hexagon() {
    return csl(6, 1);
  }

  static Graph twoTriangles() {
    return Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3);
  }

  /** G(n, p). */
  static Graph random(Random rnd, int n, double p) {
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

  /** A random d-regular graph on n vertices (pairing model, retried until simple). */
  static Graph randomRegular(Random rnd, int n, int d) {
    if ((n * d) % 2 != 0 || d >= n) {
      throw new IllegalArgumentException("no " + d + "-regular graph on " + n + " vertices");
    }
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
        int u = points[i];
        int v = points[i + 1];
        if (u == v || b.hasEdge(u, v)) {
          simple = false;
        } else {
          b.addEdge(u, v);
        }
      }
      if (simple) {
        return b.build();
      }
    }
  }

  /** A uniformly random permutation of 0..n-1. */
  static int[] permutation(Random rnd, int n) {
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
    return p;
  }
}
