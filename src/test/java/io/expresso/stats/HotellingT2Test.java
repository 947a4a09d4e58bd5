package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.stat.correlation.Covariance;
import org.junit.jupiter.api.Test;

class HotellingT2Test {

  @Test
  void oneDimensionByHand() {
    // differences 1, 2, 3: mean 2, unbiased variance 1 → D̄ᵀS⁻¹D̄ = 4; Hotelling: q·4 = 12.
    double[][] d = {{1}, {2}, {3}};
    assertThat(HotellingT2.ofDifferences(d, Convention.BREC)).isCloseTo(4.0, within(1e-12));
    assertThat(HotellingT2.ofDifferences(d, Convention.HOTELLING)).isCloseTo(12.0, within(1e-12));
  }

  @Test
  void twoDimensionsByClosedFormInverse() {
    // d_i = (1,0), (0,1), (2,2), (1,3): mean (1, 1.5).
    // Centered: (0,-1.5), (-1,-0.5), (1,0.5), (0,1.5); S = 1/3 · [[2, 1], [1, 5]].
    // S⁻¹ = 3/9 · [[5, -1], [-1, 2]]; D̄ᵀS⁻¹D̄ = (1/3)(5·1 − 2·1·1.5 + 2·2.25) = (1/3)(6.5) = 13/6.
    double[][] d = {{1, 0}, {0, 1}, {2, 2}, {1, 3}};
    assertThat(HotellingT2.ofDifferences(d, Convention.BREC)).isCloseTo(13.0 / 6, within(1e-12));
    assertThat(HotellingT2.ofDifferences(d, Convention.HOTELLING)).isCloseTo(4 * 13.0 / 6, within(1e-12));
  }

  @Test
  void matchesNumpyOnFixedEmbeddings() {
    // Expected values: numpy 2.4.6, pinv(np.cov(X−Y, rowvar=False), rcond=d·eps32) (see Fixtures).
    double[][][] full = Fixtures.pair(32, 16, 12345);
    assertThat(HotellingT2.of(full[0], full[1], Convention.BREC)).isCloseTo(45.80515610256688, within(1e-9));
    assertThat(HotellingT2.of(full[0], full[1], Convention.HOTELLING)).isCloseTo(1465.7649952821403, within(1e-7));
    double[][][] small = Fixtures.pair(6, 3, 777);
    assertThat(HotellingT2.of(small[0], small[1], Convention.BREC)).isCloseTo(3.127905578877618, within(1e-11));
    // q = 4 < d = 6: the covariance has rank 3; the pseudo-inverse still gives numpy's value.
    double[][][] wide = Fixtures.pair(4, 6, 4242);
    assertThat(HotellingT2.of(wide[0], wide[1], Convention.BREC)).isCloseTo(1.2681665659902601, within(1e-9));
  }

  @Test
  void fullRankAgreesWithExplicitInverse() {
    // Independent route: S⁻¹ by LU decomposition instead of the SVD pseudo-inverse.
    double[][][] e = Fixtures.pair(32, 16, 98765);
    double[][] d = HotellingT2.differences(e[0], e[1]);
    RealMatrix s = new Covariance(d).getCovarianceMatrix();
    RealVector mean = MatrixUtils.createRealVector(new double[16]);
    for (double[] row : d) {
      mean = mean.add(MatrixUtils.createRealVector(row).mapDivide(32));
    }
    double expected = new LUDecomposition(s).getSolver().getInverse().operate(mean).dotProduct(mean);
    assertThat(HotellingT2.of(e[0], e[1], Convention.BREC)).isCloseTo(expected, within(1e-9 * expected));
  }

  @Test
  void directionsWithoutVarianceAreIgnoredLikeTorch() {
    // A column whose difference is the same in every relabeling has zero variance; torch.pinv
    // drops it, so it adds nothing to T² even though its mean is non-zero.
    double[][] d = {{1, 7}, {2, 7}, {3, 7}};
    assertThat(HotellingT2.ofDifferences(d, Convention.BREC)).isCloseTo(4.0, within(1e-9));
  }

  @Test
  void theSameNonZeroDifferenceInEveryRelabelingIsInfinite() {
    // S = 0 with D̄ ≠ 0: an exactly invariant model that separates the pair. BREC's float32 scripts
    // report 1e10-1e14 there (rounding noise in S); the exact pinv(0) = 0 would call it a failure.
    double[][] constant = {{0.5, -1}, {0.5, -1}, {0.5, -1}, {0.5, -1}};
    assertThat(HotellingT2.ofDifferences(constant, Convention.HOTELLING)).isInfinite();
    assertThat(HotellingT2.ofDifferences(constant, Convention.BREC)).isEqualTo(Double.POSITIVE_INFINITY);
    // and no difference at all (a graph beside its own relabelings) stays 0
    double[][] none = {{0, 0}, {0, 0}, {0, 0}};
    assertThat(HotellingT2.ofDifferences(none, Convention.BREC)).isZero();
  }

  @Test
  void pseudoInverseOfSingularCovarianceSatisfiesMoorePenrose() {
    // q = 5 relabelings in d = 8: S has rank ≤ 4.
    double[][][] e = Fixtures.pair(5, 8, 31337);
    RealMatrix a = new Covariance(HotellingT2.differences(e[0], e[1])).getCovarianceMatrix();
    RealMatrix p = PseudoInverse.of(a);
    double scale = a.getNorm();
    assertClose(a.multiply(p).multiply(a), a, 1e-10 * scale);
    assertClose(p.multiply(a).multiply(p), p, 1e-10 * p.getNorm());
    assertClose(a.multiply(p).transpose(), a.multiply(p), 1e-10);
    assertClose(p.multiply(a).transpose(), p.multiply(a), 1e-10);
    // A A⁺ is the projector onto the column space: its trace is the rank, 4.
    assertThat(a.multiply(p).getTrace()).isCloseTo(4.0, within(1e-9));
  }

  @Test
  void pseudoInverseOfRankOneMatrixHasClosedForm() {
    // (v vᵀ)⁺ = v vᵀ / |v|⁴
    RealVector v = MatrixUtils.createRealVector(new double[] {1, -2, 0.5, 3});
    RealMatrix a = v.outerProduct(v);
    double n2 = v.dotProduct(v);
    assertClose(PseudoInverse.of(a), a.scalarMultiply(1 / (n2 * n2)), 1e-12);
    assertClose(PseudoInverse.of(MatrixUtils.createRealMatrix(3, 3)), MatrixUtils.createRealMatrix(3, 3), 0);
  }

  @Test
  void toleranceCutsNearSingularDirections() {
    RealMatrix a = MatrixUtils.createRealDiagonalMatrix(new double[] {1, 1e-9});
    assertThat(PseudoInverse.of(a, PseudoInverse.FLOAT64_EPS * 2).getEntry(1, 1)).isCloseTo(1e9, within(1.0));
    assertThat(PseudoInverse.of(a).getEntry(1, 1)).isZero(); // 1e-9 < 2·2⁻²³
    assertThatThrownBy(() -> PseudoInverse.of(a, -1)).hasMessageContaining("tolerance");
  }

  @Test
  void badEmbeddingsGetSpecificErrors() {
    double[][] ok = {{1, 2}, {3, 4}, {5, 6}};
    assertThatThrownBy(() -> HotellingT2.of(ok, new double[][] {{1, 2}, {3, 4}}, Convention.BREC))
        .hasMessageContaining("same number of rows").hasMessageContaining("3 vs 2");
    assertThatThrownBy(() -> HotellingT2.of(ok, new double[][] {{1, 2}, {3}, {5, 6}}, Convention.BREC))
        .hasMessageContaining("second embeddings: row 1 has 1 columns, expected 2");
    assertThatThrownBy(() -> HotellingT2.of(new double[][] {{1, 2}, {3, Double.NaN}, {5, 6}}, ok, Convention.BREC))
        .hasMessageContaining("first embeddings: row 1 column 1 is NaN");
    assertThatThrownBy(() -> HotellingT2.ofDifferences(new double[][] {{1, 2}}, Convention.BREC))
        .hasMessageContaining("at least 2 rows");
    assertThatThrownBy(() -> HotellingT2.of(ok, ok, null)).hasMessageContaining("convention");
  }

  @Test
  void conventionParsesCliNames() {
    assertThat(Convention.parse("brec")).isEqualTo(Convention.BREC);
    assertThat(Convention.parse("HOTELLING")).isEqualTo(Convention.HOTELLING);
    assertThat(Convention.BREC.id()).isEqualTo("brec");
    assertThatThrownBy(() -> Convention.parse("fisher")).hasMessage("unknown T² convention 'fisher' (expected brec or hotelling)");
  }

  private static void assertClose(RealMatrix actual, RealMatrix expected, double tol) {
    assertThat(actual.getRowDimension()).isEqualTo(expected.getRowDimension());
    for (int i = 0; i < actual.getRowDimension(); i++) {
      for (int j = 0; j < actual.getColumnDimension(); j++) {
        assertThat(actual.getEntry(i, j)).as("entry (%d,%d)", i, j).isCloseTo(expected.getEntry(i, j), within(tol));
      }
    }
  }
}
