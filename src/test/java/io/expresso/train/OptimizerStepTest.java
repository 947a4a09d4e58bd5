package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import io.expresso.engine.Devices;
import io.expresso.engine.NativeEngine;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class OptimizerStepTest {

  /** Bias gradients +1 and -1 (zero inputs: no weight gradient): they sum to zero, yet a step is due. */
  @Test
  void gradientsThatCancelAreAppliedAsPyTorchWould() {
    float[] bias = stepOnce(out -> out.get(0, 0).sub(out.get(0, 1)), true);
    assertThat(bias).containsExactly(-0.5f, 0.5f); // SGD, rate 0.5, from zero biases
  }

  /** Every gradient zero: nothing to learn, the step is skipped (DJL would refuse it). */
  @Test
  void allZeroGradientsSkipTheStep() {
    float[] bias = stepOnce(out -> out.sum().mul(0f), false);
    assertThat(bias).containsExactly(0f, 0f);
  }

  private static float[] stepOnce(Function<NDArray, NDArray> loss, boolean applied) {
    NativeEngine.start();
    try (Model model = Devices.newModel("step", ai.djl.Device.cpu())) {
      model.setBlock(Linear.builder().setUnits(2).build());
      DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.l2Loss())
          .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.5f)).build());
      try (Trainer trainer = model.newTrainer(config)) {
        trainer.initialize(new Shape(1, 3));
        for (var p : model.getBlock().getParameters()) {
          if (p.getValue().getType() == Parameter.Type.BIAS) {
            p.getValue().getArray().set(new float[] {0f, 0f});
          }
        }
        NDManager m = trainer.getManager();
        try (GradientCollector gc = trainer.newGradientCollector()) {
          NDArray out = trainer.forward(new NDList(m.zeros(new Shape(1, 3)))).singletonOrThrow();
          gc.backward(loss.apply(out));
        }
        assertThat(OptimizerStep.apply(trainer)).isEqualTo(applied);
        for (var p : model.getBlock().getParameters()) {
          if (p.getValue().getType() == Parameter.Type.BIAS) {
            return p.getValue().getArray().toFloatArray();
          }
        }
        throw new AssertionError("no bias");
      }
    }
  }
}
