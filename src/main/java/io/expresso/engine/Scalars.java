package io.expresso.engine;

import ai.djl.ndarray.NDArray;

/**
 * Array-by-constant operations that are safe inside a graph autograd will run backward through.
 * DJL's {@code x.mul(Number)} (also {@code div}, {@code maximum}, …) wraps the constant in a tensor
 * over a JVM direct buffer (on the CPU without a copy) and closes it as soon as the product exists;
 * autograd keeps that tensor for the backward pass (mul's gradient is the constant), so a garbage
 * collection between forward and backward frees its memory and backward multiplies by whatever
 * lands there — NaN now and then (Graphormer's query scale on BREC pair 0 lost 397 of 400 steps).
 * Here the constant lives on the array's own manager, so it is freed with the pass's arrays, after
 * backward.
 *
 * <p>In DJL 0.36 the calls with this hazard are {@code mul}, {@code div}, {@code pow}, {@code
 * maximum} and {@code minimum} by a Number (also in place, through {@code NDArrays}, and inside
 * {@code scaleGradient}, {@code swish} and {@code Activation.relu6}); ScalarsGuardTest keeps them out
 * of the main sources. The same holds for any array made from Java data ({@code manager.create(…)})
 * on the CPU: closed before backward, whatever autograd kept of it (a factor, an index) is freed
 * memory, so such arrays stay open until the pass ends (SubgraphTables copies what it must close).
 * On a GPU the data is copied to the device and none of this applies.
 */
public final class Scalars {

  private Scalars() {}

  /** {@code x · c}, differentiable. */
  public static NDArray mul(NDArray x, float c) {
    return x.mul(x.getManager().create(c));
  }

  /** {@code max(x, c)} elementwise, differentiable. */
  public static NDArray maximum(NDArray x, float c) {
    return x.maximum(x.getManager().create(c));
  }

  /** {@code min(x, c)} elementwise, differentiable. */
  public static NDArray minimum(NDArray x, float c) {
    return x.minimum(x.getManager().create(c));
  }
}
