package io.expresso.train;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.ParameterTracker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DJL's Adam, its formula unchanged (β1 0.9, β2 0.999, ε 1e-8, no weight decay:
 * {@code w ← w − lr·√(1 − β2^t)/(1 − β1^t) · m / (√v + ε)}, the gradient zeroed after the update),
 * with the update run on the calling thread alone. DJL's native update opens an OpenMP parallel
 * region for every op on a parameter of 32,768 values or more and for every square root (libtorch
 * takes √ from MKL's vector library, threaded whatever the size); each region wakes the intra-op
 * threads, which on a loaded machine costs milliseconds against microseconds of arithmetic on these
 * small arrays: PPGN's 44 parameter arrays took 83 regions per step, its step twice the authors'
 * PyTorch Adam's (docs/results/robustness-side-by-side.md). Here each parameter is updated in pieces
 * of at most {@link #PIECE} values, below libtorch's parallel grain, and √v is taken as 1 / v^−½
 * (libtorch's vectorised rsqrt), at most one float ulp from √v: the same update up to float rounding.
 *
 * <p>Its whole state — each parameter's moments and update count, and the step of bias correction —
 * is reachable ({@link #moments}, {@link #updates}, {@link #step}, {@link #resume}), so a saved run
 * continues with the very moments it stopped with ({@link AdamMoments}).
 */
final class SerialAdam extends Optimizer {

  /** Values per piece: under libtorch's grain (32,768), where an elementwise op stays on its thread. */
  static final int PIECE = 16_384;
  private static final float BETA1 = 0.9f;
  private static final float BETA2 = 0.999f;
  private static final float EPSILON = 1e-8f;

  private final ParameterTracker learningRate;
  /** Per parameter id: the first and second moment estimates, flat. */
  private final Map<String, NDArray[]> moments = new ConcurrentHashMap<>();
  /** Per parameter id: its updates so far (DJL's {@code Optimizer.updateCounts}, kept here to be saved). */
  private final Map<String, Integer> updates = new ConcurrentHashMap<>();
  /** The most updates of any parameter: bias correction's t (DJL's {@code numUpdate}). */
  private int latestStep;

  SerialAdam(ParameterTracker learningRate) {
    super(new Defaults());
    this.learningRate = learningRate;
  }

  @Override
  public void update(String parameterId, NDArray weight, NDArray grad) {
    int t = nextStep(parameterId);
    double coef1 = 1.0 - Math.pow(BETA1, t);
    double coef2 = 1.0 - Math.pow(BETA2, t);
    float rate = learningRate.getNewValue(parameterId, t);
    float corrected = (float) (rate * Math.sqrt(coef2) / coef1);
    if (!Float.isFinite(corrected)) {
      throw new IllegalArgumentException("Adam's learning rate is not finite: " + rate + " (step " + t + ")");
    }
    NDArray[] mv = moments.computeIfAbsent(parameterId, k -> {
      NDArray m = weight.getManager().zeros(new Shape(weight.size()), weight.getDataType());
      NDArray v = weight.getManager().zeros(new Shape(weight.size()), weight.getDataType());
      m.detach(); // held for the optimiser's life, as DJL's Adam holds its states
      v.detach();
      return new NDArray[] {m, v};
    });
    boolean recording = JniUtils.isGradMode();
    JniUtils.setGradMode(false); // in-place updates of leaves that record gradients
    try (NDManager scope = weight.getManager().newSubManager()) {
      NDArray w = weight.reshape(-1);
      NDArray g = grad.reshape(-1);
      w.attach(scope);
      g.attach(scope);
      long size = w.size();
      if (size <= PIECE) {
        stepPiece(w, g, mv[0], mv[1], corrected);
      } else {
        for (long from = 0; from < size; from += PIECE) {
          NDIndex piece = new NDIndex().addSliceDim(from, Math.min(size, from + PIECE));
          stepPiece(w.get(piece), g.get(piece), attached(mv[0].get(piece), scope), attached(mv[1].get(piece), scope),
              corrected);
        }
      }
    } finally {
      JniUtils.setGradMode(recording);
    }
    JniUtils.zeroGrad((PtNDArray) weight);
  }

  /** DJL's {@code Optimizer.updateCount}: this parameter's count goes up, t is the most of any parameter's. */
  private synchronized int nextStep(String parameterId) {
    int count = updates.merge(parameterId, 1, Integer::sum);
    latestStep = Math.max(latestStep, count);
    return latestStep;
  }

  /** Bias correction's step t of the last update (0: none yet). */
  synchronized int step() {
    return latestStep;
  }

  /** How often the parameter of this id was updated (0: never). */
  int updates(String parameterId) {
    return updates.getOrDefault(parameterId, 0);
  }

  /** The parameter's first and second moments, flat, held by this optimiser; null before its first update. */
  NDArray[] moments(String parameterId) {
    return moments.get(parameterId);
  }

  /**
   * Continues from a saved state: the parameter of this id has had {@code count} updates and has these
   * moments (flat, its size), which this optimiser holds from now on. The step t is the most updates of
   * any parameter, as it was when saved: counts only grow, so DJL's running maximum is theirs.
   */
  synchronized void resume(String parameterId, int count, NDArray first, NDArray second) {
    first.detach();
    second.detach();
    NDArray[] old = moments.put(parameterId, new NDArray[] {first, second});
    if (old != null) {
      old[0].close();
      old[1].close();
    }
    updates.put(parameterId, count);
    latestStep = Math.max(latestStep, count);
  }

  /** One piece, in place: {@code g} is this step's own copy of the gradient, used as scratch. */
  private static void stepPiece(NDArray w, NDArray g, NDArray m, NDArray v, float corrected) {
    try (NDManager scope = w.getManager().newSubManager()) {
      NDArray scaled = g.mul(1 - BETA1);
      scaled.attach(scope);
      m.muli(BETA1).addi(scaled);
      g.muli(g).muli(1 - BETA2);
      v.muli(BETA2).addi(g);
      NDArray rootInverse = v.pow(-0.5f);
      rootInverse.attach(scope);
      NDArray denominator = rootInverse.pow(-1f).addi(EPSILON); // √v + ε
      denominator.attach(scope);
      NDArray ratio = m.div(denominator);
      ratio.attach(scope);
      w.subi(ratio.muli(corrected));
    }
  }

  private static NDArray attached(NDArray a, NDManager scope) {
    a.attach(scope);
    return a;
  }

  /** DJL's optimiser settings at their defaults: no rescaling, no clipping, no weight decay. */
  private static final class Defaults extends OptimizerBuilder<Defaults> {
    @Override
    protected Defaults self() {
      return this;
    }
  }
}
