package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;

/** Algebraic facts about T² that hold for any data, checked on random embeddings. */
class T2InvarianceProperties {

  @Property(tries = 80)
  void invariantUnderInvertibleLinearMapsWhenCovarianceHasFullRank(
      @ForAll @IntRange(min = 1, max = 6) int d,
      @ForAll @IntRange(min = 3, max = 10) int extraRows,
      @ForAll long seed) {
    // With S of full rank, T² = D̄ᵀS⁻¹D̄ and (AD̄)ᵀ(ASAᵀ)⁻¹(AD̄) = D̄ᵀS⁻¹D̄ for invertible A.
    // Adding one vector c to every embedding of both graphs cancels in the differences.
    int q = d + extraRows;
    SplittableRandom rnd = new SplittableRandom(seed);
    double[][] x = gaussian(rnd, q, d, 0.3);
    double[][] y = gaussian(rnd, q, d, 0);
    RealMatrix a = MatrixUtils.createRealMatrix(gaussian(rnd, d, d, 0));
    double[] c = gaussian(rnd, 1, d, 5)[0];
    Assume.that(new SingularValueDecomposition(a).getConditionNumber() < 1e3);

    double[][] ax = transform(a, x, c);
    double[][] ay = transform(a, y, c);
    // The exact inverse (tolerance 0): the fact is algebra in float64; with the default float32 cut-off a
    // transform of condition ~1e3 can push ASAᵀ's smallest singular value below the cut and drop a direction.
    for (Convention conv : Convention.values()) {
      double before = HotellingT2.of(x, y, conv, 0);
      double after = HotellingT2.of(ax, ay, conv, 0);
      assertThat(after).as("%s, d=%d q=%d", conv, d, q).isCloseTo(before, within(1e-7 * (1 + before)));
    }
  }

  @Property(tries = 40)
  void hotellingIsQTimesBrec(@ForAll @IntRange(min = 2, max = 20) int q, @ForAll @IntRange(min = 1, max = 24) int d,
      @ForAll long seed) {
    // Holds for singular S too (q ≤ d): the conventions differ only by the factor q.
    SplittableRandom rnd = new SplittableRandom(seed);
    double[][] x = gaussian(rnd, q, d, 0.1);
    double[][] y = gaussian(rnd, q, d, 0);
    double brec = HotellingT2.of(x, y, Convention.BREC);
    assertThat(brec).isGreaterThanOrEqualTo(0);
    assertThat(HotellingT2.of(x, y, Convention.HOTELLING)).isCloseTo(q * brec, within(1e-9 * (1 + q * brec)));
  }

  private static double[][] transform(RealMatrix a, double[][] rows, double[] shift) {
    double[][] out = new double[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      out[i] = a.operate(rows[i]);
      for (int j = 0; j < shift.length; j++) {
        out[i][j] += shift[j];
      }
    }
    return out;
  }

  static double[][] gaussian(SplittableRandom rnd, int rows, int cols, double mean) {
    double[][] m = new double[rows][cols];
    for (int i = 0; i < rows; i++) {
      for (int j = 0; j < cols; j++) {
        m[i][j] = mean + PairedComparisonTest.gaussian(rnd);
      }
    }
    return m;
  }
}
