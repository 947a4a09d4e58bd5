package io.expresso.model;

import io.expresso.graph.Graph;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The directed edges of a batch of graphs and OSAN's MAP solver over them, BREC's edge policy with
 * {@code sample_k = -1} ({@code OSAN/subgraph/undirected_edge_selection.py}): per graph and per
 * column of scores, every undirected edge is kept but the one of least {@code θ(u→v) + θ(v→u)}
 * (summed in double precision, as numba's dict holds them); among equal sums the last pair (u, v),
 * u < v, in vertex order goes, as the authors' heap pops pairs in ascending order and keeps the
 * first k. A graph with one edge loses it; one without edges keeps nothing to lose.
 *
 * <p>Edge e runs from {@code src[e]} to {@code dst[e]} (batch rows); a graph's edges are
 * contiguous, from {@code first[b]} to {@code first[b + 1]}, ordered by source then neighbour.
 */
record EdgeDeletion(int[] src, int[] dst, int[] reverse, int[] first, int[] offset) {

  static EdgeDeletion of(List<Graph> graphs) {
    int edges = 0;
    for (Graph g : graphs) {
      edges += 2 * g.m();
    }
    int[] src = new int[edges];
    int[] dst = new int[edges];
    int[] reverse = new int[edges];
    int[] first = new int[graphs.size() + 1];
    int[] offset = new int[graphs.size()];
    int e = 0;
    int rows = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      first[b] = e;
      offset[b] = rows;
      Map<Long, Integer> index = new HashMap<>();
      for (int v = 0; v < g.n(); v++) {
        for (int u : g.neighbors(v)) {
          src[e] = rows + v;
          dst[e] = rows + u;
          index.put((long) v * g.n() + u, e);
          e++;
        }
      }
      for (int k = first[b]; k < e; k++) {
        reverse[k] = index.get((long) (dst[k] - rows) * g.n() + (src[k] - rows));
      }
      rows += g.n();
    }
    first[graphs.size()] = e;
    return new EdgeDeletion(src, dst, reverse, first, offset);
  }

  int edges() {
    return src.length;
  }

  /**
   * The MAP state for scores {@code theta} (E×columns, row-major): 1 for every directed edge kept
   * in a column's subgraph, 0 for the two directions of the edge it deletes.
   */
  float[] keep(float[] theta, int columns) {
    float[] mask = new float[theta.length];
    java.util.Arrays.fill(mask, 1f);
    for (int b = 0; b + 1 < first.length; b++) {
      for (int c = 0; c < columns; c++) {
        int least = -1;
        double leastWeight = Double.POSITIVE_INFINITY;
        for (int e = first[b]; e < first[b + 1]; e++) {
          if (src[e] > dst[e]) {
            continue; // each undirected edge once, as the pair (u, v) with u < v
          }
          double w = (double) theta[e * columns + c] + (double) theta[reverse[e] * columns + c];
          if (least < 0 || w < leastWeight || (w == leastWeight && later(e, least))) {
            least = e;
            leastWeight = w;
          }
        }
        if (least >= 0) {
          mask[least * columns + c] = 0f;
          mask[reverse[least] * columns + c] = 0f;
        }
      }
    }
    return mask;
  }

  /** True when edge e's pair (u, v) comes after edge f's in vertex order (first u, then v). */
  private boolean later(int e, int f) {
    return src[e] != src[f] ? src[e] > src[f] : dst[e] > dst[f];
  }
}
