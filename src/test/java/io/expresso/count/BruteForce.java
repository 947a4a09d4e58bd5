package io.expresso.count;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Test oracle: induced copies by enumerating every k-subset and trying every vertex bijection. */
public final class BruteForce {

  private BruteForce() {}

  /** Every vertex subset (sorted, as a list) whose induced subgraph is isomorphic to p. */
  public static Set<List<Integer>> copies(Graph g, Pattern p) {
    Set<List<Integer>> out = new HashSet<>();
    Graph h = p.graph();
    int k = p.k();
    int[] subset = new int[k];
    collect(g, h, subset, 0, 0, out);
    return out;
  }

  public static long count(Graph g, Pattern p) {
    return copies(g, p).size();
  }

  public static long[] perNode(Graph g, Pattern p) {
    long[] out = new long[g.n()];
    for (List<Integer> c : copies(g, p)) {
      for (int v : c) {
        out[v]++;
      }
    }
    return out;
  }

  private static void collect(Graph g, Graph h, int[] subset, int size, int from, Set<List<Integer>> out) {
    if (size == subset.length) {
      if (isomorphic(g, subset, h)) {
        List<Integer> c = new ArrayList<>();
        for (int v : subset) {
          c.add(v);
        }
        out.add(c);
      }
      return;
    }
    for (int v = from; v < g.n(); v++) {
      subset[size] = v;
      collect(g, h, subset, size + 1, v + 1, out);
    }
  }

  /** True if some bijection subset[a] -> a maps G[subset] exactly onto h. */
  static boolean isomorphic(Graph g, int[] subset, Graph h) {
    int k = subset.length;
    int[] perm = new int[k];
    for (int a = 0; a < k; a++) {
      perm[a] = a;
    }
    do {
      boolean ok = true;
      for (int a = 0; a < k && ok; a++) {
        for (int b = a + 1; b < k && ok; b++) {
          ok = g.adjacent(subset[a], subset[b]) == h.adjacent(perm[a], perm[b]);
        }
      }
      if (ok) {
        return true;
      }
    } while (nextPermutation(perm));
    return false;
  }

  private static boolean nextPermutation(int[] a) {
    int i = a.length - 2;
    while (i >= 0 && a[i] >= a[i + 1]) {
      i--;
    }
    if (i < 0) {
      return false;
    }
    int j = a.length - 1;
    while (a[j] <= a[i]) {
      j--;
    }
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = a.length - 1; l < r; l++, r--) {
      t = a[l];
      a[l] = a[r];
      a[r] = t;
    }
    return true;
  }
}
