package io.expresso.stats;

import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * Mean ± sample standard deviation over repeated runs (seeds), the summary the reproducible
 * benchmarking protocol reports.
 *
 * @param n number of values
 * @param mean their mean
 * @param std sample standard deviation (divisor n − 1; 0 for a single value)
 */
public record MeanStd(int n, double mean, double std) {

  /**
   * Summarises {@code values}.
   *
   * @throws IllegalArgumentException if there are no values or one is not finite
   */
  public static MeanStd of(double... values) {
    if (values == null || values.length == 0) {
      throw new IllegalArgumentException("mean ± std needs at least one value");
    }
    SummaryStatistics s = new SummaryStatistics();
    for (int i = 0; i < values.length; i++) {
      if (!Double.isFinite(values[i])) {
        throw new IllegalArgumentException("value " + i + " is " + values[i]);
      }
      s.addValue(values[i]);
    }
    return new MeanStd(values.length, s.getMean(), values.length == 1 ? 0 : s.getStandardDeviation());
  }

  /** {@code mean ± std} with the given number of decimals. */
  public String format(int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f ± %." + decimals + "f", mean, std);
  }
}
