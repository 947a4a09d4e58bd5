package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.nn.Parameter;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.Trainer;
import ai.djl.util.Pair;
import io.expresso.graph.Graph;
import io.expresso.model.Architecture;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An epoch whose every step was skipped as non-finite has no loss: not 0, not an improvement. */
class SkippedEpochTest {

  @Test
  void anEpochOfSkippedStepsHasNoLossAndNeitherStopsNorImproves() {
    Graph g = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3, 3, 0);
    Graph h = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3);
    List<Graph> major = List.of(g, h, g, h);
    // patience 1: the rate falls after two epochs without improvement; threshold 0.5: a loss of 0 would stop at once
    TrainingSettings s = TrainingSettings.defaults(Architecture.GIN).withQ(2).withBatchSize(2).withEpochs(4)
        .withLossThreshold(0.5).withSchedule(new PlateauSchedule.Settings(0.5f, 1, 0f));
    try (GraphModel m = GraphModel.create(ModelSpec.parse("gin:layers=2,hidden=8"), Head.EMBEDDING, Device.cpu(), 3)) {
      try (Trainer reach = m.newTrainer(new DefaultTrainingConfig(new CosineEmbeddingLoss()))) {
        for (Pair<String, Parameter> p : reach.getModel().getBlock().getParameters()) { // NaN weights: every loss NaN
          NDArray w = p.getValue().getArray();
          float[] nan = new float[(int) w.size()];
          Arrays.fill(nan, Float.NaN);
          w.set(nan);
        }
      }
      TrainingOutcome t = SiameseTrainer.train(m, major, s);
      assertThat(t.skippedSteps()).isEqualTo(4 * 2); // 4 epochs of 2 steps
      assertThat(t.epochs()).isEqualTo(4);           // no early stop on a missing loss
      assertThat(t.finalLoss()).isNaN();
      assertThat(t.finalLearningRate()).isEqualTo(s.learningRate() * 0.5f * 0.5f); // after epochs 2 and 4
    }
  }

  @Test
  void theScheduleAndTheEarlyStopReadNoLossAsNoImprovement() {
    PlateauSchedule schedule = new PlateauSchedule(1f, 0.5f, 1, 0f);
    schedule.afterEpoch(1, 1.0);
    schedule.afterEpoch(2, Double.NaN);
    schedule.afterEpoch(3, Double.NaN); // 2 > patience epochs without improvement
    assertThat(schedule.rate()).isEqualTo(0.5f);
    schedule.afterEpoch(4, 0.9); // measured against 1.0, not against NaN
    assertThat(schedule.state().best()).isEqualTo(0.9);
    assertThat(new LossThresholdStop(0.2).afterEpoch(1, Double.NaN)).isFalse();
  }
}
