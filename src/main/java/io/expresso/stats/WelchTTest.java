package io.expresso.stats;

import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's two-sample t-test (unequal variances, two-sided), a thin layer over Commons Math's
 * {@link TTest} that also reports the Welch–Satterthwaite degrees of freedom and the means. Used
 * to ask whether a distribution (counts, edge counts) shifted between two samples.
 */
public final class WelchTTest {

  /**
   * @param t the t statistic (mean(a) − mean(b)) / sqrt(var(a)/n_a + var(b)/n_b)
   * @param degreesOfFreedom Welch–Satterthwaite ν
   * @param pValue two-sided p-value
   * @param meanA mean of the first sample
   * @param meanB mean of the second sample
   */
  public record Result(double t, double degreesOfFreedom, double pValue, double meanA, double meanB) {

    /** True when the two-sided p-value is below {@code alpha}. */
    public boolean significantAt(double alpha) {
      return pValue < alpha;
    }
  }

  private WelchTTest() {}

  /**
   * Tests H₀: mean(a) = mean(b).
   *
   * @throws IllegalArgumentException if a sample has fewer than 2 values, holds a non-finite
   *     value, or both samples have zero variance (t undefined)
   */
  public static Result test(double[] a, double[] b) {
    check("first sample", a);
    check("second sample", b);
    double va = StatUtils.variance(a);
    double vb = StatUtils.variance(b);
    if (va == 0 && vb == 0) {
      throw new IllegalArgumentException("Welch's t-test is undefined when both samples are constant");
    }
    TTest tTest = new TTest();
    double sa = va / a.length;
    double sb = vb / b.length;
    double df = (sa + sb) * (sa + sb)
        / (sa * sa / (a.length - 1) + sb * sb / (b.length - 1));
    return new Result(tTest.t(a, b), df, tTest.tTest(a, b), StatUtils.mean(a), StatUtils.mean(b));
  }

  /**
   * The two-sided p-value, or NaN where the test is undefined (a sample with fewer than 2 values,
   * or both constant): for reports that show a dash rather than stop.
   */
  public static double pValueOrNaN(double[] a, double[] b) {
    if (a.length < 2 || b.length < 2) {
      return Double.NaN;
    }
    try {
      return test(a, b).pValue();
    } catch (IllegalArgumentException e) {
      return Double.NaN;
    }
  }

  private static void check(String what, double[] x) {
    if (x == null || x.length < 2) {
      throw new IllegalArgumentException(what + ": Welch's t-test needs at least 2 values, got "
          + (x == null ? 0 : x.length));
    }
    for (int i = 0; i < x.length; i++) {
      if (!Double.isFinite(x[i])) {
        throw new IllegalArgumentException(what + ": value " + i + " is " + x[i]);
      }
    }
  }
}
