package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Simulated isomorphic pairs: both graphs' embeddings are drawn from the same distribution, so
 * every "distinguished" verdict is a false positive. Fixed seeds keep the counts reproducible; the
 * bounds are the nominal rate plus three binomial standard deviations.
 */
class FalsePositiveSimulationTest {

  private static final int TRIALS = 400;
  private static final int Q = 32;
  private static final int D = 16;
  private static final double ALPHA = 0.05;

  @Test
  void rpcWithTextbookHotellingHasRateAlpha() {
    SplittableRandom rnd = new SplittableRandom(20240501L);
    Threshold t = Threshold.rpc(Q, D, ALPHA);
    int hotelling = 0;
    int brec = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
      double[][] g = T2InvarianceProperties.gaussian(rnd, Q, D, 1);
      double[][] h = T2InvarianceProperties.gaussian(rnd, Q, D, 1);
      double[][] r1 = T2InvarianceProperties.gaussian(rnd, Q, D, 1);
      double[][] r2 = T2InvarianceProperties.gaussian(rnd, Q, D, 1);
      if (PairedComparison.judge(g, h, r1, r2, t, Convention.HOTELLING).distinguished()) {
        hotelling++;
      }
      if (PairedComparison.judge(g, h, r1, r2, t, Convention.BREC).distinguished()) {
        brec++;
      }
    }
    double rate = hotelling / (double) TRIALS;
    double sigma = Math.sqrt(ALPHA * (1 - ALPHA) / TRIALS);
    // The F threshold is exact for Gaussian differences: the rate is α, neither above nor far below.
    assertThat(rate).isBetween(ALPHA - 3 * sigma, ALPHA + 3 * sigma);
    // The official convention (no factor q) needs q·T² > 32·72.34 under the textbook law: P ≈ 1e-11.
    assertThat(brec).isZero();
  }

  @Test
  void rapcBoundsTheRateByOneOverGroupsPlusOneEvenForHeavyTails() {
    int groups = 9; // bound 1/10
    SplittableRandom rnd = new SplittableRandom(99L);
    int falsePositives = 0;
    for (int trial = 0; trial < TRIALS; trial++) {
      List<PairedEmbeddings> within = new ArrayList<>();
      for (int k = 0; k < groups; k++) {
        within.add(new PairedEmbeddings(heavy(rnd), heavy(rnd)));
      }
      Threshold t = Threshold.rapc(within, Convention.BREC);
      PairJudgement j = PairedComparison.judge(heavy(rnd), heavy(rnd), heavy(rnd), heavy(rnd), t, Convention.BREC);
      if (j.distinguished()) {
        falsePositives++;
      }
    }
    double bound = Threshold.rapcFalsePositiveBound(groups);
    double sigma = Math.sqrt(bound * (1 - bound) / TRIALS);
    assertThat(falsePositives / (double) TRIALS).isLessThanOrEqualTo(bound + 3 * sigma);
  }

  /** Cubed Gaussians: far from the normal law the F threshold assumes. */
  private static double[][] heavy(SplittableRandom rnd) {
    double[][] m = T2InvarianceProperties.gaussian(rnd, Q, D, 0);
    for (double[] row : m) {
      for (int j = 0; j < row.length; j++) {
        row[j] = row[j] * row[j] * row[j];
      }
    }
    return m;
  }
}
