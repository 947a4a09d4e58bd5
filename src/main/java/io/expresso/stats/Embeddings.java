package io.expresso.stats;

/**
 * Converts a model's flat float32 output (q rows of d values, row-major, as
 * {@code NDArray.toFloatArray()} returns a q × d array) into the {@code double[q][d]} rows the
 * statistics take. Widening float to double is exact, so nothing of the model's output is lost.
 */
public final class Embeddings {

  private Embeddings() {}

  /**
   * Rows of {@code d} values.
   *
   * @throws IllegalArgumentException if {@code d} &lt; 1 or the length is not a multiple of d
   */
  public static double[][] rows(float[] flat, int d) {
    if (flat == null) {
      throw new IllegalArgumentException("embeddings are missing (null)");
    }
    if (d < 1 || flat.length % d != 0) {
      throw new IllegalArgumentException(flat.length + " embedding values do not split into rows of d=" + d);
    }
    double[][] out = new double[flat.length / d][d];
    for (int i = 0; i < out.length; i++) {
      for (int j = 0; j < d; j++) {
        out[i][j] = flat[i * d + j];
      }
    }
    return out;
  }

  /** Rows {@code from, from+step, from+2·step, …} of {@code rows}: BREC's even (from 0) or odd (from 1) entries with step 2. */
  public static double[][] every(double[][] rows, int from, int step) {
    if (from < 0 || step < 1) {
      throw new IllegalArgumentException("need from >= 0 and step >= 1, got from=" + from + ", step=" + step);
    }
    int n = rows.length > from ? (rows.length - from + step - 1) / step : 0;
    double[][] out = new double[n][];
    for (int k = 0; k < n; k++) {
      out[k] = rows[from + k * step];
    }
    return out;
  }
}
