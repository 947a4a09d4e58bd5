package io.expresso.model;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.Locale;

/**
 * Node input features, the one home of what a model reads per vertex. A column as a TorchScript
 * module's sparse input names it ({@code features=degree+count-triangle}): the constant 1 (BREC's
 * unlabelled graphs), the degree, the exact number of induced copies of a pattern that contain
 * the node ({@code count/}), or the shortest-path distance to a marked vertex ({@code spd}; -1 where
 * none exists), which only means something in a copy of the graph with one vertex marked: a spec
 * that asks for it feeds every graph as its n marked copies ({@link #marks}). The built-in blocks
 * read the constant, one-hot node-label columns
 * ({@link ModelSpec#nodeLabels}) and the spec's Laplacian positional encodings ({@link #table},
 * {@link #pe}). Every column is invariant under relabeling (the encodings up to their sign, which
 * training flips at random), so the siamese test stays meaningful.
 *
 * @param name the spec's name for the column
 * @param pattern the counted pattern of a {@code count-…} column, else null
 */
public record NodeFeature(String name, Pattern pattern) {

  public static final NodeFeature ONES = new NodeFeature("ones", null);
  public static final NodeFeature DEGREE = new NodeFeature("degree", null);
  public static final NodeFeature SPD = new NodeFeature("spd", null);

  /** The feature names a spec accepts. */
  public static String forms() {
    return "ones, degree, spd, count-P (P one of " + Pattern.validNames() + ")";
  }

  /**
   * @throws IllegalArgumentException naming the unknown feature and the valid forms
   */
  public static NodeFeature parse(String text) {
    String s = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    if (s.equals(ONES.name)) {
      return ONES;
    }
    if (s.equals(DEGREE.name)) {
      return DEGREE;
    }
    if (s.equals(SPD.name)) {
      return SPD;
    }
    if (s.startsWith("count-")) {
      return new NodeFeature(s, Pattern.fromName(s.substring("count-".length())));
    }
    throw new IllegalArgumentException("unknown node feature '" + text + "'; expected " + forms());
  }

  /** True for the column that needs a marked vertex ({@code spd}). */
  public boolean marks() {
    return this.equals(SPD);
  }

  /** The column for every vertex of {@code g} (not for {@code spd}: see {@link #values(Graph, int)}). */
  public float[] values(Graph g) {
    if (marks()) {
      throw new IllegalArgumentException("node feature spd needs a marked vertex");
    }
    return values(g, -1);
  }

  /** The column for every vertex of {@code g} with vertex {@code marked} marked (-1: none, not for spd). */
  public float[] values(Graph g, int marked) {
    float[] out = new float[g.n()];
    if (marks()) {
      int[] d = ShortestPaths.bfs(g, marked);
      for (int v = 0; v < out.length; v++) {
        out[v] = d[v]; // ShortestPaths.UNREACHABLE is -1
      }
      return out;
    }
    if (pattern != null) {
      long[] c = InducedCounts.perNode(g, pattern);
      for (int v = 0; v < out.length; v++) {
        out[v] = c[v];
      }
      return out;
    }
    for (int v = 0; v < out.length; v++) {
      out[v] = name.equals(ONES.name) ? 1f : g.degree(v);
    }
    return out;
  }

  /** Graph {@code g}'s n×k Laplacian encodings as floats, column j multiplied by {@code signs[j]} (null: +1). */
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
   * The built-in blocks' input: the flat (total vertices)×(1 + labels + k) table of the batch: per
   * vertex the constant 1 ({@link #ONES}), then a one-hot row
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
