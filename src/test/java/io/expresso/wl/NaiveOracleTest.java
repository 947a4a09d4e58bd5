package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast engines against a textbook implementation: colours as strings, signatures spelled
 * out and sorted, one dictionary shared by both graphs, histograms compared after every round
 * until the union's partition stops growing.
 */
class NaiveOracleTest {

  /** Naive refinement of cells; {@code neighbourhood[c]} lists, per w, the cells whose colours form c's tuple. */
  private static boolean naiveDistinguishes(String[] initialG, String[] initialH, int[][][] tuplesG, int[][][] tuplesH) {
    String[] g = initialG.clone();
    String[] h = initialH.clone();
    int classes = -1;
    while (true) {
      Map<String, Integer> dict = new HashMap<>();
      String[] ng = round(g, tuplesG, dict);
      String[] nh = round(h, tuplesH, dict);
      if (!histogram(g).equals(histogram(h))) {
        return true;
      }
      if (dict.size() == classes) {
        return false;
      }
      classes = dict.size();
      g = ng;
      h = nh;
    }
  }

  private static String[] round(String[] colour, int[][][] tuples, Map<String, Integer> dict) {
    String[] next = new String[colour.length];
    for (int c = 0; c < colour.length; c++) {
      List<String> items = new ArrayList<>();
      for (int[] tuple : tuples[c]) {
        StringBuilder sb = new StringBuilder("(");
        for (int t : tuple) {
          sb.append(t < 0 ? "arc" + (-t) : colour[t]).append(',');
        }
        items.add(sb.append(')').toString());
      }
      items.sort(null);
      String sig = colour[c] + "|" + String.join(";", items);
      next[c] = "#" + dict.computeIfAbsent(sig, x -> dict.size());
    }
    return next;
  }

  private static Map<String, Integer> histogram(String[] colour) {
    Map<String, Integer> m = new HashMap<>();
    for (String c : colour) {
      m.merge(c, 1, Integer::sum);
    }
    return m;
  }

  private static boolean naiveOneWl(Graph g, Graph h) {
    if (g.n() != h.n()) {
      return true;
    }
    String[] init = new String[g.n()];
    Arrays.fill(init, "x");
    return naiveDistinguishes(init, init, vertexTuples(g, false), vertexTuples(h, false));
  }

  private static boolean naiveSpdWl(Graph g, Graph h) {
    String[] init = new String[g.n()];
    Arrays.fill(init, "x");
    return naiveDistinguishes(init, init, vertexTuples(g, true), vertexTuples(h, true));
  }

  /** Per vertex, its neighbours (or, for SPD, every other vertex tagged with the distance). */
  private static int[][][] vertexTuples(Graph g, boolean spd) {
    int n = g.n();
    int[][][] t = new int[n][][];
    for (int v = 0; v < n; v++) {
      List<int[]> items = new ArrayList<>();
      int[] dist = ShortestPaths.bfs(g, v);
      for (int u = 0; u < n; u++) {
        if (spd && u != v) {
          items.add(new int[] {-(dist[u] + 2), u});
        } else if (!spd && g.adjacent(u, v)) {
          items.add(new int[] {u});
        }
      }
      t[v] = items.toArray(new int[0][]);
    }
    return t;
  }

  private static boolean naiveTwoFwl(Graph g, Graph h) {
    int n = g.n();
    return naiveDistinguishes(pairTypes(g), pairTypes(h), pairTuples(n), pairTuples(n));
  }

  private static String[] pairTypes(Graph g) {
    int n = g.n();
    String[] c = new String[n * n];
    for (int u = 0; u < n; u++) {
      for (int v = 0; v < n; v++) {
        c[u * n + v] = u == v ? "eq" : g.adjacent(u, v) ? "adj" : "non";
      }
    }
    return c;
  }

  private static int[][][] pairTuples(int n) {
    int[][][] t = new int[n * n][n][];
    for (int u = 0; u < n; u++) {
      for (int v = 0; v < n; v++) {
        for (int w = 0; w < n; w++) {
          t[u * n + v][w] = new int[] {u * n + w, w * n + v};
        }
      }
    }
    return t;
  }

  private static boolean naiveThreeFwl(Graph g, Graph h) {
    int n = g.n();
    return naiveDistinguishes(tripleTypes(g), tripleTypes(h), tripleTuples(n), tripleTuples(n));
  }

  private static String[] tripleTypes(Graph g) {
    int n = g.n();
    String[] c = new String[n * n * n];
    for (int u = 0; u < n; u++) {
      for (int v = 0; v < n; v++) {
        for (int x = 0; x < n; x++) {
          c[(u * n + v) * n + x] = type(g, u, v) + type(g, u, x) + type(g, v, x);
        }
      }
    }
    return c;
  }

  private static String type(Graph g, int a, int b) {
    return a == b ? "=" : g.adjacent(a, b) ? "E" : "N";
  }

  /** For (u,v,x) and each w: the tuples (w,v,x), (u,w,x), (u,v,w). */
  private static int[][][] tripleTuples(int n) {
    int[][][] t = new int[n * n * n][n][];
    for (int u = 0; u < n; u++) {
      for (int v = 0; v < n; v++) {
        for (int x = 0; x < n; x++) {
          for (int w = 0; w < n; w++) {
            t[(u * n + v) * n + x][w] = new int[] {(w * n + v) * n + x, (u * n + w) * n + x, (u * n + v) * n + w};
          }
        }
      }
    }
    return t;
  }

  private static List<Graph[]> samplePairs(long seed) {
    Random rnd = new Random(seed);
    List<Graph[]> pairs = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      int n = 3 + rnd.nextInt(7);
      pairs.add(new Graph[] {TestGraphs.random(rnd, n, 0.5), TestGraphs.random(rnd, n, 0.5)});
    }
    for (int i = 0; i < 15; i++) {
      int n = 6 + 2 * rnd.nextInt(3);
      pairs.add(new Graph[] {TestGraphs.randomRegular(rnd, n, 3), TestGraphs.randomRegular(rnd, n, 3)});
    }
    pairs.add(new Graph[] {TestGraphs.decalin(), TestGraphs.bicyclopentyl()});
    pairs.add(new Graph[] {TestGraphs.hexagon(), TestGraphs.twoTriangles()});
    return pairs;
  }

  @Test
  void oneWlAgreesWithTextbookRefinement() {
    for (Graph[] p : samplePairs(1)) {
      assertThat(new OneWl().distinguishes(p[0], p[1])).as("%s vs %s", p[0], p[1]).isEqualTo(naiveOneWl(p[0], p[1]));
    }
  }

  @Test
  void spdWlAgreesWithTextbookRefinement() {
    for (Graph[] p : samplePairs(2)) {
      assertThat(new SpdWl().distinguishes(p[0], p[1])).as("%s vs %s", p[0], p[1]).isEqualTo(naiveSpdWl(p[0], p[1]));
    }
  }

  @Test
  void twoFwlAgreesWithTextbookRefinement() {
    int separated = 0;
    for (Graph[] p : samplePairs(3)) {
      boolean expected = naiveTwoFwl(p[0], p[1]);
      separated += expected ? 1 : 0;
      assertThat(new TwoFwl().distinguishes(p[0], p[1])).as("%s vs %s", p[0], p[1]).isEqualTo(expected);
    }
    assertThat(separated).isPositive();
  }

  @Test
  void threeFwlAgreesWithTextbookRefinementOnSmallGraphs() {
    Random rnd = new Random(4);
    for (int i = 0; i < 25; i++) {
      int n = 3 + rnd.nextInt(4);
      Graph g = TestGraphs.random(rnd, n, 0.5);
      Graph h = i % 3 == 0 ? g.relabel(TestGraphs.permutation(rnd, n)) : TestGraphs.random(rnd, n, 0.5);
      assertThat(new ThreeFwl().distinguishes(g, h)).as("%s vs %s", g, h).isEqualTo(naiveThreeFwl(g, h));
    }
    Graph[] hard = {TestGraphs.hexagon(), TestGraphs.twoTriangles()};
    assertThat(naiveThreeFwl(hard[0], hard[1])).isTrue();
    assertThat(new ThreeFwl().distinguishes(hard[0], hard[1])).isTrue();
  }

  @Test
  void twoFwlOnStronglyRegularPairAgreesWithTextbookRefinement() {
    assertThat(naiveTwoFwl(TestGraphs.shrikhande(), TestGraphs.rook4x4())).isFalse();
    assertThat(new TwoFwl().distinguishes(TestGraphs.shrikhande(), TestGraphs.rook4x4())).isFalse();
  }
}
