package io.expresso.stats;

/**
 * Deterministic embedding fixtures shared with the numpy/scipy oracle that produced the expected
 * values in these tests: Park–Miller's minimal-standard generator (x ← 48271·x mod 2³¹−1, value
 * x/(2³¹−1) − 0.5), filled row-major into X (q × d) and then Y (q × d), Y's column j shifted by
 * 0.05·j. The oracle script (numpy 2.4.6, scipy 1.17.1) computed T² = mean·pinv(np.cov(X−Y,
 * rowvar=False), rcond=d·float32 eps)·mean on exactly these arrays.
 */
final class Fixtures {

  private Fixtures() {}

  /** {X, Y} for the given shape and seed. */
  static double[][][] pair(int q, int d, long seed) {
    long x = seed;
    double[][] a = new double[q][d];
    double[][] b = new double[q][d];
    for (int i = 0; i < q; i++) {
      for (int j = 0; j < d; j++) {
        x = (x * 48271) % 2147483647L;
        a[i][j] = x / 2147483647.0 - 0.5;
      }
    }
    for (int i = 0; i < q; i++) {
      for (int j = 0; j < d; j++) {
        x = (x * 48271) % 2147483647L;
        b[i][j] = x / 2147483647.0 - 0.5 + 0.05 * j;
      }
    }
    return new double[][][] {a, b};
  }
}
