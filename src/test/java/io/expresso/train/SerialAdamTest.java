package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import io.expresso.engine.NativeEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link SerialAdam} takes DJL's Adam steps, up to float rounding, in one piece and in many. */
class SerialAdamTest {

  @BeforeAll
  static void engine() {
    NativeEngine.start();
  }

  @Test
  void stepsAsDjlsAdamAndZeroesTheGradient() {
    // 7 values: one piece; 40,000: three pieces, the last one short
    for (int size : new int[] {7, 2 * SerialAdam.PIECE + 7_232}) {
      try (NDManager m = NDManager.newBaseManager()) {
        Optimizer djl = Optimizer.adam().optLearningRateTracker(Tracker.fixed(0.01f)).build();
        Optimizer serial = new SerialAdam(Tracker.fixed(0.01f));
        NDArray start = m.randomNormal(new Shape(size));
        NDArray a = start.duplicate();
        NDArray b = start.duplicate();
        a.setRequiresGradient(true);
        b.setRequiresGradient(true);
        for (int step = 0; step < 5; step++) {
          // gradients of every sign and size, zeros among them (√0 must stay 0, not NaN)
          NDArray slope = m.randomNormal(new Shape(size)).mul(step % 2 == 0 ? 1f : 1e-3f);
          slope.set(new ai.djl.ndarray.index.NDIndex("0"), 0f);
          update(djl, a, slope);
          update(serial, b, slope);
          assertThat(b.getGradient().abs().max().getFloat()).as("gradient zeroed after the step").isZero();
        }
        float[] expected = a.toFloatArray();
        float[] actual = b.toFloatArray();
        float[] initial = start.toFloatArray();
        for (int i = 0; i < size; i++) {
          assertThat(actual[i]).as("value %d of %d", i, size).isCloseTo(expected[i],
              org.assertj.core.data.Offset.offset(1e-6f + 1e-6f * Math.abs(expected[i])));
        }
        assertThat(actual[size - 1]).as("the last piece moved").isNotEqualTo(initial[size - 1]);
      }
    }
  }

  /** As DJL's trainer: a backward pass fills the gradient, the optimiser gets a copy of it. */
  private static void update(Optimizer optimizer, NDArray weight, NDArray slope) {
    boolean recording = JniUtils.isGradMode();
    JniUtils.setGradMode(true);
    try (NDManager s = weight.getManager().newSubManager()) {
      NDArray loss = weight.mul(slope).sum();
      loss.attach(s);
      JniUtils.backward((PtNDArray) loss, (PtNDArray) loss.onesLike(), false, false);
    } finally {
      JniUtils.setGradMode(recording);
    }
    try (NDArray grad = weight.getGradient().duplicate()) {
      optimizer.update("w", weight, grad);
    }
  }
}
