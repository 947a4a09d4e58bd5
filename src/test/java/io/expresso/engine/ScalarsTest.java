package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Constants in a differentiable graph survive a garbage collection between forward and backward. */
class ScalarsTest {

  /**
   * The gradient of sum(op(x)) at x = (1, 2, 3) after a forward pass, a collection, and a burst of
   * NaN-filled one-float buffers that reuse freed memory before backward runs.
   */
  static float[] gradientAfterCollection(UnaryOperator<NDArray> op) {
    try (NDManager manager = NDManager.newBaseManager(ai.djl.Device.cpu())) {
      NDArray x = manager.create(new float[] {1f, 2f, 3f});
      x.setRequiresGradient(true);
      try (ThreadGradients collector = new ThreadGradients(); NDManager pass = manager.newSubManager()) {
        NDArray y = op.apply(x.getManager() == pass ? x : pass.from(x)).sum();
        for (int round = 0; round < 3; round++) {
          System.gc();
          List<NDArray> churn = new ArrayList<>();
          for (int i = 0; i < 2000; i++) {
            churn.add(pass.create(Float.NaN));
          }
          churn.forEach(NDArray::close);
        }
        collector.backward(y);
      }
      return x.getGradient().toFloatArray();
    }
  }

  @Test
  void aConstantFactorIsStillThereWhenBackwardRuns() {
    for (int run = 0; run < 5; run++) {
      assertThat(gradientAfterCollection(x -> Scalars.mul(x, 3f))).containsExactly(3f, 3f, 3f);
    }
  }

  /** What ScalarsGuardTest lets through: by a Number, these ops' backward reads no freed constant. */
  @Test
  void djlsOwnAddSubAndClipByANumberKeepTheirGradient() {
    for (int run = 0; run < 3; run++) {
      assertThat(gradientAfterCollection(x -> x.add(3f).square())).containsExactly(8f, 10f, 12f);
      assertThat(gradientAfterCollection(x -> x.sub(3f).square())).containsExactly(-4f, -2f, 0f);
      assertThat(gradientAfterCollection(x -> x.clip(1.5f, 2.5f))).containsExactly(0f, 1f, 0f);
      assertThat(gradientAfterCollection(x -> ai.djl.ndarray.NDArrays.sub(6f, x).square()))
          .containsExactly(-10f, -8f, -6f);
    }
  }

  @Test
  void aConstantFloorIsStillThereWhenBackwardRuns() {
    // max(x, 2): gradient 0 below the floor, 1 above it (torch's maximum splits ties: 0.5)
    for (int run = 0; run < 5; run++) {
      assertThat(gradientAfterCollection(x -> Scalars.maximum(x, 2f))).containsExactly(0f, 0.5f, 1f);
    }
  }
}
