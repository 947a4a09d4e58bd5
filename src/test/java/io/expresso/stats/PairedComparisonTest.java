package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PairedComparisonTest {

  private static final double THRESHOLD = 72.34;

  @Test
  void isCloseFollowsTorchDefaults() {
    // torch.isclose(a, b, atol=1e-6): |a − b| <= 1e-6 + 1e-5·|b|
    assertThat(PairedComparison.isClose(0, 1e-6)).isTrue();
    assertThat(PairedComparison.isClose(0, 1.5e-6)).isFalse();
    assertThat(PairedComparison.isClose(100, 100.001)).isTrue(); // tolerance 1.00101e-3
    assertThat(PairedComparison.isClose(100, 100.0011)).isFalse();
    assertThat(PairedComparison.isClose(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY)).isTrue();
    assertThat(PairedComparison.isClose(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)).isFalse();
    assertThat(PairedComparison.isClose(Double.POSITIVE_INFINITY, 1e300)).isFalse();
    assertThat(PairedComparison.isClose(Double.NaN, Double.NaN)).isFalse();
  }

  @Test
  void isCloseIsAsymmetricLikeTorch() {
    // The relative part scales with the second argument (T²_reliability), as in torch.
    double a = 1000;
    double b = 1000.01000105; // |a − b| = 0.01000105
    assertThat(PairedComparison.isClose(a, b)).isTrue(); // tol = 1e-6 + 1e-5·b ≈ 0.0100011
    assertThat(PairedComparison.isClose(b, a)).isFalse(); // tol = 1e-6 + 1e-5·a = 0.010001
  }

  @Test
  void decisionMatchesTheOfficialRule() {
    PairJudgement clear = PairedComparison.decide(500, 3, THRESHOLD);
    assertThat(clear.distinguished()).isTrue();
    assertThat(clear.reliable()).isTrue();
    assertThat(clear.reliablyDistinguished()).isTrue();

    PairJudgement below = PairedComparison.decide(THRESHOLD, 3, THRESHOLD); // strict >
    assertThat(below.distinguished()).isFalse();

    PairJudgement unreliable = PairedComparison.decide(500, THRESHOLD, THRESHOLD); // strict <
    assertThat(unreliable.distinguished()).isTrue();
    assertThat(unreliable.reliable()).isFalse();
    assertThat(unreliable.reliablyDistinguished()).isFalse();

    // A model whose statistics blow up equally on G-vs-H and G-vs-G: T²_test is close to
    // T²_reliability, so it is not counted as distinguished (and the check fails).
    PairJudgement blownUp = PairedComparison.decide(1.0e6 + 5, 1.0e6, THRESHOLD);
    assertThat(blownUp.distinguished()).isFalse();
    assertThat(blownUp.reliable()).isFalse();
    assertThat(PairedComparison.decide(1.0e6 + 11, 1.0e6, THRESHOLD).distinguished()).isTrue();
  }

  @Test
  void judgeComputesBothStatisticsFromEmbeddings() {
    // G differs from H by a clear shift with small noise; the reliability arrays are two sets of
    // relabelings of G (noise only).
    int q = 32;
    int d = 16;
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    double[][] g = new double[q][d];
    double[][] h = new double[q][d];
    double[][] r1 = new double[q][d];
    double[][] r2 = new double[q][d];
    for (int i = 0; i < q; i++) {
      for (int j = 0; j < d; j++) {
        double base = Math.sin(j);
        g[i][j] = base + 0.01 * gaussian(rnd);
        h[i][j] = base + 0.5 + 0.01 * gaussian(rnd);
        r1[i][j] = base + 0.01 * gaussian(rnd);
        r2[i][j] = base + 0.01 * gaussian(rnd);
      }
    }
    PairJudgement j = PairedComparison.judge(g, h, r1, r2, Threshold.rpc(), Convention.BREC);
    assertThat(j.t2Test()).isCloseTo(HotellingT2.of(g, h, Convention.BREC), within(1e-9));
    assertThat(j.t2Reliability()).isCloseTo(HotellingT2.of(r1, r2, Convention.BREC), within(1e-12));
    assertThat(j.threshold()).isCloseTo(72.338, within(1e-3));
    assertThat(j.distinguished()).isTrue();
    assertThat(j.reliable()).isTrue();

    PairJudgement same = PairedComparison.judge(r1, r2, r2, r1, Threshold.rpc(), Convention.BREC);
    assertThat(same.distinguished()).isFalse();
  }

  @Test
  void judgeRejectsMissingParts() {
    double[][] a = {{1}, {2}, {3}};
    assertThatThrownBy(() -> PairedComparison.judge(a, a, a, a, null, Convention.BREC))
        .hasMessageContaining("threshold");
  }

  static double gaussian(java.util.SplittableRandom rnd) {
    // Box–Muller; SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - rnd.nextDouble();
    double v = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}
