package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import io.expresso.graph.ShortestPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The seeded benchmark graph sets: molecule-sized graphs and 30-node SBM graphs. */
final class BenchGraphs {

  private BenchGraphs() {}

  /**
   * Molecule-like graphs: a random tree on 20–30 vertices with degrees at most 4, plus 0–3 ring
   * closures (edges between vertices at distance 4 to 6, keeping degrees at most 4).
   */
  static List<Graph> molecules(int count, long seed) {
    Random rnd = new Random(seed);
    List<Graph> out = new ArrayList<>(count);
    while (out.size() < count) {
      int n = 20 + rnd.nextInt(11);
      GraphBuilder b = new GraphBuilder(n);
      int[] deg = new int[n];
      for (int v = 1; v < n; v++) {
        int u;
        do {
          u = rnd.nextInt(v);
        } while (deg[u] >= 4);
        b.addEdge(u, v);
        deg[u]++;
        deg[v]++;
      }
      Graph tree = b.build();
      int rings = rnd.nextInt(4);
      int[][] dist = new int[n][];
      for (int v = 0; v < n; v++) {
        dist[v] = ShortestPaths.bfs(tree, v);
      }
      for (int tries = 0; rings > 0 && tries < 200; tries++) {
        int u = rnd.nextInt(n);
        int v = rnd.nextInt(n);
        if (u != v && deg[u] < 4 && deg[v] < 4 && dist[u][v] >= 4 && dist[u][v] <= 6 && !b.hasEdge(u, v)) {
          b.addEdge(u, v);
          deg[u]++;
          deg[v]++;
          rings--;
        }
      }
      out.add(TestRelabel.shuffle(b.build(), rnd));
    }
    return out;
  }

  /** 30-node stochastic block model: communities of 10 with p_in 0.2, 0.3, 0.4 and p_out 0.1. */
  static List<Graph> sbm(int count, long seed) {
    Random rnd = new Random(seed);
    double[] pIn = {0.2, 0.3, 0.4};
    List<Graph> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      GraphBuilder b = new GraphBuilder(30);
      for (int u = 0; u < 30; u++) {
        for (int v = u + 1; v < 30; v++) {
          double p = u / 10 == v / 10 ? pIn[u / 10] : 0.1;
          if (rnd.nextDouble() < p) {
            b.addEdge(u, v);
          }
        }
      }
      out.add(TestRelabel.shuffle(b.build(), rnd));
    }
    return out;
  }

  /** Random relabelling, so that no input arrives in a convenient order. */
  static final class TestRelabel {
    static Graph shuffle(Graph g, Random rnd) {
      int n = g.n();
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
      return g.relabel(perm);
    }
  }
}
