package io.expresso.train;

/**
 * Test errors of a count regressor as in Campi et al., Table 3: ℓ1 is the mean absolute error,
 * ℓc the mean of |prediction − count| / (count + 1), the paper's relative error (the + 1 keeps
 * graphs without a copy of the pattern finite).
 */
public record CountErrors(double l1, double lc, int graphs) {

  public static CountErrors of(double[] predictions, long[] counts) {
    if (predictions.length != counts.length) {
      throw new IllegalArgumentException(predictions.length + " predictions for " + counts.length + " counts");
    }
    double l1 = 0;
    double lc = 0;
    for (int i = 0; i < counts.length; i++) {
      double e = Math.abs(predictions[i] - counts[i]);
      l1 += e;
      lc += e / (counts[i] + 1.0);
    }
    int n = Math.max(1, counts.length);
    return new CountErrors(l1 / n, lc / n, counts.length);
  }
}
