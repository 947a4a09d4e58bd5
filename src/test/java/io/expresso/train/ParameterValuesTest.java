package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import io.expresso.count.CountingSplit;
import io.expresso.count.RobustnessData;
import io.expresso.graph.Graph;
import io.expresso.engine.Devices;
import io.expresso.model.GraphRegressor;
import io.expresso.model.RegressorSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Restored parameter values are the ones a live trainer goes on updating (a real GIN regressor). */
class ParameterValuesTest {

  @Test
  void restoredValuesAreTheArraysTheTrainerKeepsTraining() {
    CountingSplit d = RobustnessData.erdosRenyi(40, RobustnessData.ER_IN, 3);
    List<Graph> batch = d.train().graphs().subList(0, 8);
    GraphRegressor net = RegressorSpec.parse("gin:hidden=8,layers=2").create();
    try (Model model = Model.newInstance("gin", Devices.parse("cpu"), "PyTorch")) {
      model.setBlock(net.block());
      DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.l1Loss())
          .optOptimizer(Optimizer.adam().optLearningRateTracker(Tracker.fixed(0.05f)).build());
      try (Trainer trainer = model.newTrainer(config)) {
        trainer.initialize(net.inputShapes(model.getNDManager()));
        byte[] start = ParameterValues.snapshot(net.block());
        step(trainer, net, batch);
        assertThat(ParameterValues.snapshot(net.block())).as("a step moves the parameters").isNotEqualTo(start);

        ParameterValues.restore(net.block(), start);
        assertThat(ParameterValues.snapshot(net.block())).isEqualTo(start);
        // DJL's loadParameters fails here: it swaps in new arrays the trainer never updates
        step(trainer, net, batch);
        assertThat(ParameterValues.snapshot(net.block())).as("training goes on from the restored values")
            .isNotEqualTo(start);
      }
    }
  }

  @Test
  void valuesOfAnotherNetworkOrCutShortAreRefusedNamingWhy() {
    GraphRegressor small = RegressorSpec.parse("gin:hidden=8,layers=2").create();
    GraphRegressor wide = RegressorSpec.parse("gin:hidden=16,layers=2").create();
    try (Model a = Model.newInstance("a", Devices.parse("cpu"), "PyTorch");
        Model b = Model.newInstance("b", Devices.parse("cpu"), "PyTorch")) {
      a.setBlock(small.block());
      b.setBlock(wide.block());
      small.block().initialize(a.getNDManager(), CountRegressionTrainer.dtype(), small.inputShapes(a.getNDManager()));
      wide.block().initialize(b.getNDManager(), CountRegressionTrainer.dtype(), wide.inputShapes(b.getNDManager()));
      byte[] values = ParameterValues.snapshot(small.block());
      assertThatThrownBy(() -> ParameterValues.restore(wide.block(), values))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("do not fit");
      assertThatThrownBy(() -> ParameterValues.restore(small.block(), Arrays.copyOf(values, values.length - 5)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("truncated");
      assertThatThrownBy(() -> ParameterValues.restore(small.block(), new byte[] {0, 2, 'h', 'i'}))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not parameter values");
    }
  }

  private static void step(Trainer trainer, GraphRegressor net, List<Graph> batch) {
    JniUtils.setGradMode(true);
    try (NDManager sub = trainer.getManager().newSubManager()) {
      NDList in = net.inputs(sub, batch);
      NDArray label = sub.ones(new ai.djl.ndarray.types.Shape(batch.size())).mul(3);
      try (GradientCollector gc = trainer.newGradientCollector()) {
        gc.backward(trainer.getLoss().evaluate(new NDList(label), trainer.forward(in)));
      }
      trainer.step();
    }
  }
}
