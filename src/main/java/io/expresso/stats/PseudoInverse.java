package io.expresso.stats;

import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/**
 * Moore–Penrose pseudo-inverse through the SVD, with the cut-off of {@code torch.linalg.pinv} /
 * {@code numpy.linalg.pinv}: singular values σᵢ ≤ rtol·σ_max count as zero.
 *
 * <p>The default relative tolerance is torch's default for a float32 m×n matrix, max(m, n)·ε₃₂
 * (ε₃₂ = 2⁻²³): BREC's official code inverts a float32 covariance, and our embeddings come from
 * float32 models, so directions whose variance is below float32 resolution are noise, not signal.
 */
public final class PseudoInverse {

  /** Machine epsilon of float32 (torch.finfo(torch.float32).eps). */
  public static final double FLOAT32_EPS = Math.ulp(1.0f);

  /** Machine epsilon of float64 (numpy.finfo(float).eps). */
  public static final double FLOAT64_EPS = Math.ulp(1.0);

  private PseudoInverse() {}

  /** torch's default relative tolerance for a float32 m×n matrix: max(m, n)·ε₃₂. */
  public static double defaultRtol(int rows, int columns) {
    return Math.max(rows, columns) * FLOAT32_EPS;
  }

  /** A⁺ with the default float32 tolerance. */
  public static RealMatrix of(RealMatrix a) {
    return of(a, defaultRtol(a.getRowDimension(), a.getColumnDimension()));
  }

  /**
   * A⁺ with singular values at or below {@code rtol}·σ_max treated as zero (the zero matrix maps
   * to the zero matrix).
   *
   * @throws IllegalArgumentException if {@code rtol} is negative or not finite
   */
  public static RealMatrix of(RealMatrix a, double rtol) {
    if (!(rtol >= 0) || Double.isInfinite(rtol)) {
      throw new IllegalArgumentException("pseudo-inverse tolerance must be finite and >= 0, got " + rtol);
    }
    SingularValueDecomposition svd = new SingularValueDecomposition(a);
    double[] sigma = svd.getSingularValues();
    double cut = sigma.length == 0 ? 0 : rtol * sigma[0];
    RealMatrix u = svd.getU();
    RealMatrix v = svd.getV();
    RealMatrix result = MatrixUtils.createRealMatrix(a.getColumnDimension(), a.getRowDimension());
    for (int k = 0; k < sigma.length; k++) {
      if (sigma[k] > cut) {
        // A⁺ = Σ_k v_k u_kᵀ / σ_k over the kept singular values.
        double inv = 1.0 / sigma[k];
        for (int i = 0; i < result.getRowDimension(); i++) {
          double vik = v.getEntry(i, k) * inv;
          for (int j = 0; j < result.getColumnDimension(); j++) {
            result.addToEntry(i, j, vik * u.getEntry(j, k));
          }
        }
      }
    }
    return result;
  }
}
