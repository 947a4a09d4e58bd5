package io.expresso.model;

import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.training.initializer.UniformInitializer;

/**
 * PyTorch's default initialisation of {@code nn.Linear}: weights and biases uniform in
 * ±1/√fan-in, where the benchmarking-gnns reference GIN starts. DJL's default (He-normal weights,
 * zero biases) starts weights about 2.4 times larger, which under batch norm makes every Adam step
 * relatively smaller: on CSL with encodings the same GIN trained to 95.8 % (train) instead of 92 %
 * from PyTorch's start (docs/results/csl.md). The other built-in models keep DJL's initialisation,
 * with which their BREC and counting results were recorded.
 */
final class PyTorchInit {

  private PyTorchInit() {}

  /** Gives {@code linear} (a {@link Linear} block, before initialisation) nn.Linear's initialiser. */
  static void linear(Block linear, int fanIn) {
    if (!(linear instanceof Linear)) {
      throw new IllegalArgumentException("PyTorch's Linear initialisation needs a Linear block, got " + linear);
    }
    float bound = (float) (1 / Math.sqrt(fanIn));
    linear.setInitializer(new UniformInitializer(bound), Parameter.Type.WEIGHT);
    linear.setInitializer(new UniformInitializer(bound), Parameter.Type.BIAS);
  }

  /** The same for every Linear child of {@code sequence}: the first sees {@code fanIn} inputs, the rest {@code width}. */
  static void linears(Block sequence, int fanIn, int width) {
    int in = fanIn;
    for (Block child : sequence.getChildren().values()) {
      if (child instanceof Linear) {
        linear(child, in);
        in = width;
      }
    }
  }
}
