package io.expresso.stats;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * Mean ± sample standard deviation over repeated runs (seeds), the summary the reproducible
 * benchmarking protocol reports, and the standard error of the mean (the robustness study's error
 * bars).
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

  /**
   * Summarises the values that were measured, NaN marking one that was not (a seed with nothing to
   * attack); with none measured, n = 0 and mean, std and {@link #se} are NaN.
   */
  public static MeanStd ofMeasured(double... values) {
    double[] kept = Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
    return kept.length == 0 ? new MeanStd(0, Double.NaN, Double.NaN) : of(kept);
  }

  /** Standard error of the mean, std / √n (0 for a single value). */
  @JsonProperty("se") // reports written as JSON carry it beside mean and std
  public double se() {
    return n == 0 ? Double.NaN : std / Math.sqrt(n);
  }

  /** {@code mean ± std} with the given number of decimals. */
  public String format(int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f ± %." + decimals + "f", mean, std);
  }
}
