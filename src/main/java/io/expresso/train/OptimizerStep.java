package io.expresso.train;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Parameter;
import ai.djl.training.Trainer;
import ai.djl.util.Pair;
import java.lang.reflect.Field;

/**
 * {@link Trainer#step()} without DJL's false alarm. Until one step has passed it, DJL's trainer
 * refuses a step whose gradients <em>sum</em> to exactly zero ("Gradient values are all zeros"), a
 * guard against a forgotten {@code backward}. Signed gradients can cancel exactly where backward did
 * run: a softmax's bias gradients sum to zero, and where a model gives every graph one embedding
 * (CSL under GIN) the whole gradient may. Then the step is applied as PyTorch would apply it; only
 * gradients that are all zero skip it (a network whose ReLUs are all dead has nothing to learn from
 * the batch; an Adam step would only decay the weights).
 */
final class OptimizerStep {

  private static final String DJL_REFUSAL = "Gradient values are all zeros";

  private OptimizerStep() {}

  /** Applies the step; false if every gradient was zero and it was skipped. */
  static boolean apply(Trainer trainer) {
    try {
      trainer.step();
      return true;
    } catch (IllegalStateException e) {
      if (!String.valueOf(e.getMessage()).startsWith(DJL_REFUSAL)) {
        throw e;
      }
      if (allZero(trainer)) {
        return false;
      }
      markChecked(trainer, e);
      trainer.step();
      return true;
    }
  }

  private static boolean allZero(Trainer trainer) {
    for (Pair<String, Parameter> p : trainer.getModel().getBlock().getParameters()) {
      Parameter parameter = p.getValue();
      if (parameter.requiresGradient() && parameter.isInitialized()) {
        try (NDArray gradient = parameter.getArray().getGradient(); NDArray nonzero = gradient.abs().max()) {
          if (nonzero.getFloat() != 0f) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /** DJL has no switch for its check: its flag is set as a passed check sets it. */
  private static void markChecked(Trainer trainer, IllegalStateException refusal) {
    try {
      setChecked(trainer);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("DJL refused an optimiser step whose gradients sum to zero without all being"
          + " zero, and its check could not be passed (" + e + ")", refusal);
    }
  }

  /**
   * Marks a fresh trainer as one whose check has passed. A trainer's flag is set exactly when its
   * optimiser has taken a step (a skipped step leaves both untouched), so a run resumed with Adam's
   * moments sets it on its new trainer where its Adam had stepped, as the uninterrupted run's was.
   */
  static void markChecked(Trainer trainer) {
    try {
      setChecked(trainer);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("cannot mark the resumed trainer's gradient check as passed (" + e + ")", e);
    }
  }

  private static void setChecked(Trainer trainer) throws ReflectiveOperationException {
    Field checked = Trainer.class.getDeclaredField("gradientsChecked");
    checked.setAccessible(true);
    checked.setBoolean(trainer, true);
  }
}
