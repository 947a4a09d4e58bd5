package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.model.Architecture;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.engine.MemoryPool;
import io.expresso.model.ModelSpec;
import io.expresso.stats.Threshold;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Trains a few real pairs (the whole suites are run by hand with {@code expresso eval}). */
class PairEvaluatorTest {

  private static final GraphPair DECALIN = new GraphPair(0, "1-WL-equivalent", Constructions.decalin(),
      Constructions.bicyclopentyl(), null);
  private static final GraphPair CSL = new GraphPair(1, "CSL", Constructions.csl(11, 2), Constructions.csl(11, 3), null);
  private static final GraphPair STAR_PATH = new GraphPair(2, "1-WL-distinguishable",
      Graph.fromEdges(6, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5), Graph.fromEdges(6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5), null);

  @Test
  void ppgnDistinguishesThreeWlPairsAndPassesReliability() {
    GraphPair cycles = new GraphPair(3, "Simple regular", Constructions.cycle(6),
        Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3), null);
    for (GraphPair p : new GraphPair[] {DECALIN, CSL, cycles}) {
      PairEvaluation e = PairEvaluator.evaluate(p, ModelSpec.defaults(Architecture.PPGN),
          EvaluationSettings.defaults(Architecture.PPGN), 1L, Device.cpu());
      assertThat(e.distinguished()).as("pair %s T²=%s", p.category(), e.judgement().t2Test()).isTrue();
      assertThat(e.reliable()).as("reliability T²=%s", e.judgement().t2Reliability()).isTrue();
      assertThat(e.judgement().threshold()).isCloseTo(72.34, org.assertj.core.api.Assertions.within(0.01));
      assertThat(e.training().epochs()).isBetween(1, 20);
    }
  }

  @Test
  void ginCannotTellOneWlEquivalentGraphsApartEvenAfterTraining() {
    PairEvaluation e = PairEvaluator.evaluate(DECALIN, ModelSpec.defaults(Architecture.GIN),
        EvaluationSettings.defaults(Architecture.GIN), 1L, Device.cpu());
    assertThat(e.distinguished()).as("T²=%s", e.judgement().t2Test()).isFalse();
    assertThat(e.reliable()).isTrue();
    // the loss cannot move off 1: identical embeddings have cosine 1 whatever the weights
    assertThat(e.training().finalLoss()).isGreaterThan(0.99);
    assertThat(e.training().epochs()).isEqualTo(20);
  }

  @Test
  void trainingOnAFreshThreadLowersTheLossAndIsDeterministic() throws Exception {
    // Grad mode is thread-local in PyTorch: a trainer on a pool thread must still learn.
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      // GIN has no batch norm at its readout, so the pair starts near cosine 1 and must learn.
      EvaluationSettings s = EvaluationSettings.defaults(Architecture.GIN)
          .withTraining(TrainingSettings.defaults(Architecture.GIN).withLearningRate(1e-2f).withLossThreshold(0).withEpochs(15));
      ModelSpec spec = ModelSpec.parse("gin:layers=2,hidden=16");
      PairEvaluation a = CompletableFuture.supplyAsync(() -> PairEvaluator.evaluate(STAR_PATH, spec, s, 5L, Device.cpu()), pool).get();
      PairEvaluation first = CompletableFuture.supplyAsync(() -> PairEvaluator.evaluate(STAR_PATH, spec,
          s.withTraining(s.training().withEpochs(1)), 5L, Device.cpu()), pool).get();
      assertThat(a.training().finalLoss()).isLessThan(first.training().finalLoss() - 0.05);
      PairEvaluation b = CompletableFuture.supplyAsync(() -> PairEvaluator.evaluate(STAR_PATH, spec, s, 5L, Device.cpu()), pool).get();
      assertThat(b.training().finalLoss()).isEqualTo(a.training().finalLoss());
      assertThat(b.judgement().t2Test()).isEqualTo(a.judgement().t2Test());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rapcThresholdComesFromWithinGraphGroups() {
    EvaluationSettings s = EvaluationSettings.defaults(Architecture.PPGN).withThreshold(new io.expresso.stats.ThresholdRule.Rapc(0.05))
        .withTraining(TrainingSettings.defaults(Architecture.PPGN).withEpochs(2));
    PairEvaluation e = PairEvaluator.evaluate(DECALIN, ModelSpec.parse("ppgn:layers=3,hidden=16"), s, 2L, Device.cpu());
    assertThat(e.judgement().threshold()).isNotEqualTo(Threshold.rpc().value());
    assertThat(e.distinguished()).isTrue();
  }

  @Test
  void pairsLeasingFromAPoolThatHoldsOneAtATimeGiveTheBitsTheyGiveAlone() throws Exception {
    // a pool as large as one pair's need: the second pair waits for the first to give it back, then
    // runs the same passes as alone (same T², epochs, passes), and the pool is whole afterwards
    ModelSpec spec = ModelSpec.defaults(Architecture.PPGN);
    EvaluationSettings s = EvaluationSettings.defaults(Architecture.PPGN);
    PairEvaluation aloneDecalin = PairEvaluator.evaluate(DECALIN, spec, s, 1L, Device.cpu());
    PairEvaluation aloneCsl = PairEvaluator.evaluate(CSL, spec, s, 1L, Device.cpu());
    MemoryPool pool = new MemoryPool(poolFor(spec, CSL));
    ExecutorService two = Executors.newFixedThreadPool(2);
    try {
      CompletableFuture<PairEvaluation> d = CompletableFuture.supplyAsync(
          () -> PairEvaluator.evaluate(DECALIN, spec, s, 1L, Device.cpu(), pool, 1, () -> false), two);
      CompletableFuture<PairEvaluation> c = CompletableFuture.supplyAsync(
          () -> PairEvaluator.evaluate(CSL, spec, s, 1L, Device.cpu(), pool, 1, () -> false), two);
      for (PairEvaluation[] both : new PairEvaluation[][] {{aloneDecalin, d.get()}, {aloneCsl, c.get()}}) {
        PairEvaluation alone = both[0];
        PairEvaluation pooled = both[1];
        assertThat(pooled.judgement().t2Test()).isEqualTo(alone.judgement().t2Test());
        assertThat(pooled.judgement().t2Reliability()).isEqualTo(alone.judgement().t2Reliability());
        assertThat(pooled.training().epochs()).isEqualTo(alone.training().epochs());
        assertThat(pooled.memory().trainingGraphsPerPass()).isEqualTo(alone.memory().trainingGraphsPerPass());
        assertThat(pooled.memory().inferenceGraphsPerPass()).isEqualTo(alone.memory().inferenceGraphsPerPass());
        assertThat(pooled.memory().budgetBytes()).isLessThanOrEqualTo(pool.total()); // what it leased, not half the machine
      }
    } finally {
      two.shutdown();
    }
    assertThat(pool.free()).isEqualTo(pool.total());
  }

  /** The budget CSL's passes need (11 vertices: more than decalin's 10), so the pool holds one pair at a time. */
  private static long poolFor(ModelSpec spec, GraphPair p) {
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 1L)) {
      List<Graph> batch = java.util.Collections.nCopies(32, p.first());
      return m.budgetForFullPasses(batch, java.util.Collections.nCopies(128, p.first()));
    }
  }
}
