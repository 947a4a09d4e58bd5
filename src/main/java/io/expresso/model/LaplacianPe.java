package io.expresso.model;

import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.linear.RealVector;

/**
 * Laplacian positional encodings (Dwivedi et al., "Benchmarking GNNs", eq. 5): the eigenvectors of
 * the normalised Laplacian {@code I − D^{-1/2} A D^{-1/2}} for the k smallest eigenvalues after the
 * first (the trivial one), unit length, one row of k numbers per vertex. Graphs with fewer than
 * k + 1 vertices get zero columns for the missing vectors, as the reference code pads them. An
 * isolated vertex contributes a zero row and column to {@code D^{-1/2} A D^{-1/2}}.
 *
 * <p>Eigenvectors are defined up to sign (and, for repeated eigenvalues, up to a rotation of their
 * space): training flips each column's sign at random per batch ({@link #signs}), as the paper does.
 */
public final class LaplacianPe {

  /** Equal graphs have equal encodings: computed once per graph while the graph is alive. */
  private static final Map<Graph, double[][]> CACHE = Collections.synchronizedMap(new WeakHashMap<>());

  private LaplacianPe() {}

  /** The n×k encoding of {@code g} (row v: vertex v's k coordinates). */
  public static double[][] of(Graph g, int k) {
    if (k < 1) {
      throw new IllegalArgumentException("positional encoding dimension must be at least 1, got " + k);
    }
    double[][] all = CACHE.computeIfAbsent(g, LaplacianPe::eigenvectorsByEigenvalue);
    int n = g.n();
    double[][] out = new double[n][k];
    for (int j = 0; j < k && j + 1 < all.length; j++) {
      for (int v = 0; v < n; v++) {
        out[v][j] = all[j + 1][v];
      }
    }
    return out;
  }

  /** Every eigenvector of the normalised Laplacian, ordered by ascending eigenvalue (ties: solver order). */
  private static double[][] eigenvectorsByEigenvalue(Graph g) {
    int n = g.n();
    if (n == 0) {
      return new double[0][];
    }
    double[] invSqrt = new double[n];
    for (int v = 0; v < n; v++) {
      invSqrt[v] = g.degree(v) == 0 ? 0 : 1 / Math.sqrt(g.degree(v));
    }
    double[][] l = new double[n][n];
    for (int u = 0; u < n; u++) {
      l[u][u] = 1;
      for (int w : g.neighbors(u)) {
        l[u][w] -= invSqrt[u] * invSqrt[w];
      }
    }
    EigenDecomposition eig = new EigenDecomposition(new Array2DRowRealMatrix(l, false));
    double[] values = eig.getRealEigenvalues();
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
    double[][] vectors = new double[n][];
    for (int i = 0; i < n; i++) {
      RealVector x = eig.getEigenvector(order[i]);
      vectors[i] = x.mapDivide(Math.max(1e-12, x.getNorm())).toArray();
    }
    return vectors;
  }

  /** k signs, each +1 or −1 with probability ½, from {@code random} (a training batch's flips). */
  public static float[] signs(int k, java.util.function.LongSupplier random) {
    float[] s = new float[k];
    for (int j = 0; j < k; j++) {
      s[j] = (random.getAsLong() & 1L) == 0 ? 1f : -1f;
    }
    return s;
  }
}
