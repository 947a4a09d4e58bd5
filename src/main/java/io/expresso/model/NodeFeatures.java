package io.expresso.model;

import io.expresso.graph.Graph;
import java.util.List;

/** Node input features the blocks share: a constant 1 and the spec's Laplacian positional encodings. */
final class NodeFeatures {

  private NodeFeatures() {}

  /** Graph {@code g}'s n×k encodings as floats, column j multiplied by {@code signs[j]} (null: +1). */
  static float[][] pe(Graph g, int k, float[] signs) {
    if (signs != null && signs.length != k) {
      throw new IllegalArgumentException(signs.length + " sign flips for " + k + " encoding columns");
    }
    double[][] pe = LaplacianPe.of(g, k);
    float[][] out = new float[g.n()][k];
    for (int v = 0; v < g.n(); v++) {
      for (int j = 0; j < k; j++) {
        out[v][j] = (float) pe[v][j] * (signs == null ? 1f : signs[j]);
      }
    }
    return out;
  }

  /** The flat (total vertices)×(1+k) table of the batch: 1, then the k encodings of each vertex. */
  static float[] constantAndPe(List<Graph> graphs, int k, float[] signs) {
    int total = 0;
    for (Graph g : graphs) {
      total += g.n();
    }
    float[] x = new float[total * (1 + k)];
    int row = 0;
    for (Graph g : graphs) {
      float[][] pe = k > 0 ? pe(g, k, signs) : null;
      for (int v = 0; v < g.n(); v++, row++) {
        x[row * (1 + k)] = 1f;
        if (pe != null) {
          System.arraycopy(pe[v], 0, x, row * (1 + k) + 1, k);
        }
      }
    }
    return x;
  }
}
