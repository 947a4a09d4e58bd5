package io.expresso.graph;

import java.util.Arrays;

/** Connected components. */
public final class Components {

  private Components() {}

  /** For each vertex, the index of its component; components are numbered by smallest vertex. */
  public static int[] labels(Graph g) {
    int n = g.n();
    int[] comp = new int[n];
    Arrays.fill(comp, -1);
    int[] stack = new int[n];
    int[] off = g.csrOffsets();
    int[] tgt = g.csrTargets();
    int count = 0;
    for (int s = 0; s < n; s++) {
      if (comp[s] >= 0) {
        continue;
      }
      int top = 0;
      stack[top++] = s;
      comp[s] = count;
      while (top > 0) {
        int v = stack[--top];
        for (int k = off[v]; k < off[v + 1]; k++) {
          int u = tgt[k];
          if (comp[u] < 0) {
            comp[u] = count;
            stack[top++] = u;
          }
        }
      }
      count++;
    }
    return comp;
  }

  public static int count(Graph g) {
    int max = -1;
    for (int c : labels(g)) {
      max = Math.max(max, c);
    }
    return max + 1;
  }

  public static boolean isConnected(Graph g) {
    return g.n() <= 1 || count(g) == 1;
  }
}
