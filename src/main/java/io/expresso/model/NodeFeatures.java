package io.expresso.model;

import io.expresso.graph.Graph;

/**
 * Node input features the blocks share: a constant 1, one-hot node-label columns
 * ({@link ModelSpec#nodeLabels}) and the spec's Laplacian positional encodings.
 */
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

  /** Columns of {@link #table}: the constant, {@code labels} one-hot columns, {@code k} encodings. */
  static int width(int labels, int k) {
    return 1 + labels + k;
  }

  /**
   * The flat (total vertices)×(1 + labels + k) table of the batch: per vertex 1, then a one-hot row
   * of its label index over {@code labels} columns (none when {@code labels} is 0), then its k
   * encodings (column j times {@code signs[j]}).
   *
   * @throws IllegalArgumentException when {@code labels > 0} and the batch has no node labels, when
   *     it has labels but {@code labels} is 0, or for a label index outside 0..labels−1
   */
  static float[] table(GraphBatch batch, int labels, int k, float[] signs) {
    if (labels > 0 && !batch.hasNodeLabels()) {
      throw new IllegalArgumentException("the model reads " + labels + " node labels (node-labels=" + labels
          + ") but the batch carries none");
    }
    if (labels == 0 && batch.hasNodeLabels()) {
      throw new IllegalArgumentException("the batch carries node labels but the model reads none (no node-labels=K)");
    }
    int width = width(labels, k);
    int total = 0;
    for (Graph g : batch.graphs()) {
      total += g.n();
    }
    float[] x = new float[total * width];
    int row = 0;
    for (int b = 0; b < batch.size(); b++) {
      Graph g = batch.graphs().get(b);
      float[][] pe = k > 0 ? pe(g, k, signs) : null;
      int[] l = labels > 0 ? batch.nodeLabels().get(b) : null;
      for (int v = 0; v < g.n(); v++, row++) {
        x[row * width] = 1f;
        if (l != null) {
          if (l[v] < 0 || l[v] >= labels) {
            throw new IllegalArgumentException("vertex " + v + " of graph " + b + " of the batch has node-label index "
                + l[v] + ", outside 0.." + (labels - 1));
          }
          x[row * width + 1 + l[v]] = 1f;
        }
        if (pe != null) {
          System.arraycopy(pe[v], 0, x, row * width + 1 + labels, k);
        }
      }
    }
    return x;
  }
}
