package io.expresso.robust;

/** Mean and standard error over seeds, NaN entries (e.g. nothing attacked) left out. */
public record SeedStats(double mean, double se, int n) {

  static SeedStats of(double[] values) {
    int n = 0;
    double sum = 0;
    for (double v : values) {
      if (!Double.isNaN(v)) {
        n++;
        sum += v;
      }
    }
    if (n == 0) {
      return new SeedStats(Double.NaN, Double.NaN, 0);
    }
    double mean = sum / n;
    double ss = 0;
    for (double v : values) {
      if (!Double.isNaN(v)) {
        ss += (v - mean) * (v - mean);
      }
    }
    double se = n < 2 ? 0 : Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
    return new SeedStats(mean, se, n);
  }
}
