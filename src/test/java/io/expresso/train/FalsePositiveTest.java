package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import io.expresso.count.RandomGraphs;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.model.Architecture;
import io.expresso.model.ModelSpec;
import io.expresso.stats.Convention;
import io.expresso.stats.PairJudgement;
import io.expresso.stats.PairedComparison;
import io.expresso.suite.GraphPair;
import org.junit.jupiter.api.Test;

/**
 * RPC's false-positive rate: G against a relabeling of G with a random-weight (untrained) PPGN
 * must be "distinguished" at a rate of at most α, within sampling error, over 200 pairs.
 */
class FalsePositiveTest {

  private static final int PAIRS = 200;
  private static final double ALPHA = 0.05;

  @Test
  void isomorphicPairsAreDistinguishedAtMostAtRateAlpha() {
    ModelSpec spec = ModelSpec.parse("ppgn:layers=2,hidden=16");
    EvaluationSettings brec = EvaluationSettings.defaults(Architecture.PPGN)
        .withTraining(TrainingSettings.defaults(Architecture.PPGN).withEpochs(0));
    SplitMix64 rng = new SplitMix64(2024);
    int fpBrec = 0;
    int fpHotelling = 0;
    int unreliable = 0;
    for (int i = 0; i < PAIRS; i++) {
      int n = 8 + rng.nextInt(5);
      Graph g = RandomGraphs.erdosRenyi(n, 0.3 + 0.4 * rng.nextDouble(), rng.nextLong());
      Graph h = g.relabel(rng.permutation(n));
      GraphPair pair = new GraphPair(i, "isomorphic", g, h, null);
      PairEvaluation b = PairEvaluator.evaluate(pair, spec, brec, i, Device.cpu());
      // the textbook statistic is q times the official one: same embeddings, other convention
      double q = Convention.HOTELLING.scale(brec.training().q());
      PairJudgement t = PairedComparison.decide(q * b.judgement().t2Test(), q * b.judgement().t2Reliability(),
          b.judgement().threshold());
      fpBrec += b.distinguished() ? 1 : 0;
      fpHotelling += t.distinguished() ? 1 : 0;
      unreliable += b.reliable() ? 0 : 1;
    }
    // α plus two binomial standard errors
    double bound = ALPHA + 2 * Math.sqrt(ALPHA * (1 - ALPHA) / PAIRS);
    assertThat((double) fpBrec / PAIRS).as("brec convention false positives %d/%d", fpBrec, PAIRS).isLessThanOrEqualTo(bound);
    assertThat((double) fpHotelling / PAIRS).as("hotelling convention false positives %d/%d", fpHotelling, PAIRS)
        .isLessThanOrEqualTo(bound);
    assertThat((double) unreliable / PAIRS).as("reliability failures").isLessThanOrEqualTo(bound);
    System.out.printf("false positives over %d isomorphic pairs: brec %d, hotelling %d; reliability failures %d%n",
        PAIRS, fpBrec, fpHotelling, unreliable);
  }
}
