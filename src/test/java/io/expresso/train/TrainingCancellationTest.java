package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import ai.djl.nn.Parameter;
import ai.djl.util.Pair;
import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.count.RobustnessData;
import io.expresso.graph.Graph;
import io.expresso.model.Architecture;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import io.expresso.model.RegressorSpec;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Relabelings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Real DJL training stopped by a cancellation token. Promptness is asserted on work done (batches
 * asked about, epochs reported), never on time: training would otherwise run for 1000 epochs.
 */
class TrainingCancellationTest {

  /** A token that turns true on its {@code (batches + 1)}-th query: {@code batches} batches may run. */
  private static BooleanSupplier afterQueries(int batches, AtomicInteger queries) {
    return () -> queries.incrementAndGet() > batches;
  }

  // q = 8 relabelings per graph, 4 graphs per batch: 16 graphs, 4 batches an epoch. A 1-WL-equivalent
  // pair under GIN keeps its loss near 1, so without the token nothing would stop it early.
  private static final TrainingSettings LONG_SIAMESE = TrainingSettings.defaults(Architecture.GIN)
      .withQ(8).withBatchSize(4).withEpochs(1000).withLossThreshold(0);

  private static List<Graph> major() {
    GraphPair decalin = new GraphPair(0, "1-WL-equivalent", Constructions.decalin(), Constructions.bicyclopentyl(), null);
    Relabelings r = RelabelingDraw.forPair(decalin, LONG_SIAMESE.q(), 1L);
    return RelabelingDraw.interleave(r.first(), r.second());
  }

  @Test
  void siameseTrainingStopsAtTheFirstBatchAfterTheTokenIsSetAndCanTrainAgain() {
    List<Graph> major = major();
    try (GraphModel model = GraphModel.create(ModelSpec.parse("gin:layers=2,hidden=16"), Head.EMBEDDING, Device.cpu(), 1L)) {
      AtomicInteger queries = new AtomicInteger();
      // 6 batches: all of epoch 1, half of epoch 2
      assertThatThrownBy(() -> SiameseTrainer.train(model, major, LONG_SIAMESE, afterQueries(6, queries)))
          .isInstanceOf(CancellationException.class)
          .hasMessageContaining("epoch 2 of 1000");
      assertThat(queries).as("asked once per batch, stopped at the first yes").hasValue(7);

      // The trainer and its gradient collector were released: the same model trains again.
      TrainingOutcome again = SiameseTrainer.train(model, major, LONG_SIAMESE.withEpochs(1));
      assertThat(again.epochs()).isEqualTo(1);
      assertThat(again.finalLoss()).isFinite();
    }
  }

  @Test
  void pairEvaluationWithAPreCancelledTokenTrainsNothing() {
    GraphPair decalin = new GraphPair(0, "1-WL-equivalent", Constructions.decalin(), Constructions.bicyclopentyl(), null);
    AtomicInteger queries = new AtomicInteger();
    EvaluationSettings s = EvaluationSettings.defaults(Architecture.GIN).withTraining(LONG_SIAMESE);
    assertThatThrownBy(() -> PairEvaluator.evaluate(decalin, ModelSpec.parse("gin:layers=2,hidden=16"), s, 1L,
        Device.cpu(), afterQueries(0, queries)))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("epoch 1 of 1000");
    assertThat(queries).hasValue(1);
  }

  @Test
  void pairEvaluationChecksBeforeTheEmbeddingPass() {
    GraphPair decalin = new GraphPair(0, "1-WL-equivalent", Constructions.decalin(), Constructions.bicyclopentyl(), null);
    AtomicInteger queries = new AtomicInteger();
    // one epoch of 4 batches, then the token is set: training ends normally, the embedding pass is skipped
    EvaluationSettings s = EvaluationSettings.defaults(Architecture.GIN).withTraining(LONG_SIAMESE.withEpochs(1));
    assertThatThrownBy(() -> PairEvaluator.evaluate(decalin, ModelSpec.parse("gin:layers=2,hidden=16"), s, 1L,
        Device.cpu(), afterQueries(4, queries)))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("before the embedding pass");
    assertThat(queries).hasValue(5);
  }

  private static final RegressorSpec COUNT_SPEC = RegressorSpec.parse("i2gnn:hidden=16,layers=2,hops=2");

  // 200 graphs: 60 to train on in batches of 8, so 8 batches an epoch; 1000 epochs unless cancelled.
  private static final CountingSplit DATA = RobustnessData.erdosRenyi(200, RobustnessData.ER_IN, 11);
  private static final CountRegressionTrainer.Settings LONG_COUNT = new CountRegressionTrainer.Settings(1000, 8, 0.01f, 1, "cpu");

  @Test
  void countRegressionStopsWithinTheEpochBetweenBatches() {
    List<CountRegressionTrainer.Epoch> epochs = new ArrayList<>();
    AtomicInteger queries = new AtomicInteger();
    assertThatThrownBy(() -> new CountRegressionTrainer().train(COUNT_SPEC, Pattern.TRIANGLE, DATA.train(),
        DATA.validation(), LONG_COUNT, epochs::add, afterQueries(3, queries)))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("epoch 1 of 1000");
    assertThat(queries).as("asked once per batch, stopped at the first yes").hasValue(4);
    assertThat(epochs).isEmpty();
  }

  @Test
  void countRegressionStopsAtTheEpochBoundaryAfterTheTokenIsSet() {
    List<CountRegressionTrainer.Epoch> epochs = new ArrayList<>();
    assertThatThrownBy(() -> new CountRegressionTrainer().train(COUNT_SPEC, Pattern.TRIANGLE, DATA.train(),
        DATA.validation(), LONG_COUNT, epochs::add, () -> epochs.size() >= 2))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("epoch 3 of 1000");
    assertThat(epochs).extracting(CountRegressionTrainer.Epoch::epoch).containsExactly(1, 2);
  }

  @Test
  void aCancelledHeadRetrainingLeavesNoParameterFrozen() {
    CountRegressionTrainer trainer = new CountRegressionTrainer();
    CountRegressionTrainer.Run base = trainer.train(COUNT_SPEC, Pattern.TRIANGLE, DATA.train(), DATA.validation(),
        LONG_COUNT.withEpochs(1), null);
    try (TrainedCountModel model = base.model()) {
      AtomicInteger queries = new AtomicInteger();
      assertThatThrownBy(() -> trainer.retrainHead(model, DATA.train(), DATA.validation(), LONG_COUNT, null,
          afterQueries(2, queries)))
          .isInstanceOf(CancellationException.class);
      assertThat(queries).hasValue(3);
      for (Pair<String, Parameter> p : model.net().block().getParameters()) {
        assertThat(p.getValue().requiresGradient()).as("%s trainable again", p.getKey()).isTrue();
      }
      assertThat(java.util.Arrays.stream(model.predict(DATA.test().graphs()))).allMatch(Double::isFinite);
    }
  }
}
