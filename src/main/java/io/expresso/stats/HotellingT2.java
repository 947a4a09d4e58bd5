package io.expresso.stats;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/**
 * Hotelling's T² for paired samples, as BREC's RPC computes it: with dᵢ = xᵢ − yᵢ (i = 1..q, in
 * ℝ^d), D̄ their mean and S their unbiased sample covariance (divisor q − 1, like
 * {@code torch.cov} / {@code numpy.cov}), T² = scale · D̄ᵀ S⁺ D̄ where S⁺ is the pseudo-inverse
 * ({@link PseudoInverse}) and scale is 1 ({@link Convention#BREC}) or q
 * ({@link Convention#HOTELLING}).
 *
 * <p>The pseudo-inverse keeps the statistic defined when S is singular (q ≤ d, or embeddings that
 * do not vary along some direction). With S = 0 it is 0 when D̄ = 0 and +∞ otherwise: every
 * relabeling gives the same non-zero difference, a separation without any spread. The exact
 * pseudo-inverse would give 0 there; BREC's scripts never see S = 0, because their float32 passes
 * leave rounding noise in S, and report T² of 10¹⁰–10¹⁴ (distinguished) on such pairs: KP-GNN's on
 * the vertex-transitive strongly regular pair 110 (4×4 rook's graph, Shrikhande graph) gives 5.1e13
 * where an exactly invariant model, as Expresso's is there, has S = 0
 * (docs/results/brec-side-by-side-models.md).
 */
public final class HotellingT2 {

  private HotellingT2() {}

  /**
   * T² of the paired differences {@code x[i] - y[i]}.
   *
   * @param x q × d embeddings (row i: relabeling i of the first graph)
   * @param y q × d embeddings paired row by row with {@code x}
   * @throws IllegalArgumentException if the shapes differ, q &lt; 2, d &lt; 1, or a value is not
   *     finite (the message names the array, row and column)
   */
  public static double of(double[][] x, double[][] y, Convention convention) {
    return ofDifferences(differences(x, y), convention);
  }

  /** T² of the paired differences with an explicit pseudo-inverse tolerance (see {@link PseudoInverse}). */
  public static double of(double[][] x, double[][] y, Convention convention, double pinvRtol) {
    return ofDifferences(differences(x, y), convention, pinvRtol);
  }

  /** T² of q differences dᵢ (rows of {@code d}), with the default float32 pinv tolerance. */
  public static double ofDifferences(double[][] d, Convention convention) {
    int dim = checkShape("differences", d, -1);
    return ofDifferences(d, convention, PseudoInverse.defaultRtol(dim, dim));
  }

  /** T² of q differences dᵢ (rows of {@code d}) with an explicit pseudo-inverse tolerance. */
  public static double ofDifferences(double[][] d, Convention convention, double pinvRtol) {
    if (convention == null) {
      throw new IllegalArgumentException("T² convention is required (brec or hotelling)");
    }
    int dim = checkShape("differences", d, -1);
    int q = d.length;
    double[] mean = new double[dim];
    for (double[] row : d) {
      for (int j = 0; j < dim; j++) {
        mean[j] += row[j];
      }
    }
    for (int j = 0; j < dim; j++) {
      mean[j] /= q;
    }
    // Unbiased sample covariance (divisor q − 1, as torch.cov), one pass over centred rows.
    double[][] s = new double[dim][dim];
    double[] c = new double[dim];
    for (double[] row : d) {
      for (int j = 0; j < dim; j++) {
        c[j] = row[j] - mean[j];
      }
      for (int j = 0; j < dim; j++) {
        double cj = c[j];
        double[] sj = s[j];
        for (int k = j; k < dim; k++) {
          sj[k] += cj * c[k];
        }
      }
    }
    for (int j = 0; j < dim; j++) {
      for (int k = j; k < dim; k++) {
        s[j][k] /= q - 1;
        s[k][j] = s[j][k];
      }
    }
    return convention.scale(q) * pseudoQuadraticForm(s, mean, pinvRtol);
  }

  /**
   * mᵀ S⁺ m without forming S⁺: with S = U Σ Vᵀ, mᵀS⁺m = Σ_k (m·v_k)(u_k·m)/σ_k over the singular
   * values kept by {@link PseudoInverse}'s cut-off (σ_k &gt; rtol·σ_max).
   */
  static double pseudoQuadraticForm(double[][] s, double[] m, double rtol) {
    if (!(rtol >= 0) || Double.isInfinite(rtol)) {
      throw new IllegalArgumentException("pseudo-inverse tolerance must be finite and >= 0, got " + rtol);
    }
    SingularValueDecomposition svd = new SingularValueDecomposition(new Array2DRowRealMatrix(s, false));
    double[] sigma = svd.getSingularValues();
    if (sigma[0] == 0) { // S = 0: the same difference in every relabeling (see the class comment)
      for (double x : m) {
        if (x != 0) {
          return Double.POSITIVE_INFINITY;
        }
      }
      return 0;
    }
    double cut = rtol * sigma[0];
    double[][] u = svd.getU().getData();
    double[][] v = svd.getV().getData();
    double quadratic = 0;
    for (int k = 0; k < sigma.length && sigma[k] > cut; k++) { // σ sorted descending
      double mv = 0;
      double um = 0;
      for (int i = 0; i < m.length; i++) {
        mv += m[i] * v[i][k];
        um += u[i][k] * m[i];
      }
      quadratic += mv * um / sigma[k];
    }
    return quadratic;
  }

  /** Row-wise {@code x - y}, after checking both are finite q × d arrays of the same shape. */
  static double[][] differences(double[][] x, double[][] y) {
    int dim = checkShape("first embeddings", x, -1);
    checkShape("second embeddings", y, dim);
    if (x.length != y.length) {
      throw new IllegalArgumentException("paired embeddings need the same number of rows (relabelings): "
          + x.length + " vs " + y.length);
    }
    double[][] d = new double[x.length][dim];
    for (int i = 0; i < x.length; i++) {
      for (int j = 0; j < dim; j++) {
        d[i][j] = x[i][j] - y[i][j];
      }
    }
    return d;
  }

  /**
   * Checks a q × d array: q ≥ 2, rows of equal length d ≥ 1 (or {@code expectedDim} when ≥ 0), all
   * values finite. Returns d.
   */
  static int checkShape(String what, double[][] a, int expectedDim) {
    if (a == null) {
      throw new IllegalArgumentException(what + " are missing (null)");
    }
    if (a.length < 2) {
      throw new IllegalArgumentException(what + ": T² needs at least 2 rows (relabelings), got " + a.length);
    }
    int dim = expectedDim >= 0 ? expectedDim : (a[0] == null ? 0 : a[0].length);
    if (dim < 1) {
      throw new IllegalArgumentException(what + ": row 0 has no columns (embedding dimension must be >= 1)");
    }
    for (int i = 0; i < a.length; i++) {
      if (a[i] == null || a[i].length != dim) {
        throw new IllegalArgumentException(what + ": row " + i + " has "
            + (a[i] == null ? "no values" : a[i].length + " columns") + ", expected " + dim);
      }
      for (int j = 0; j < dim; j++) {
        if (!Double.isFinite(a[i][j])) {
          throw new IllegalArgumentException(what + ": row " + i + " column " + j + " is " + a[i][j]
              + " (embeddings must be finite; did training diverge?)");
        }
      }
    }
    return dim;
  }
}
