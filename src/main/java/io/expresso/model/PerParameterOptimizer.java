package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.training.optimizer.Optimizer;
import java.util.Set;

/**
 * Two optimizers over one model, as a script that builds two (OSAN's scorer has its own Adam):
 * the parameters named in {@code own} go to {@code other}, every other one to {@code main}. Each
 * keeps its own state per parameter.
 */
final class PerParameterOptimizer extends Optimizer {

  private final Optimizer main;
  private final Optimizer other;
  private final Set<String> own;

  PerParameterOptimizer(Optimizer main, Optimizer other, Set<String> own) {
    super(Optimizer.adam()); // its own settings are unused: every update is delegated
    this.main = main;
    this.other = other;
    this.own = Set.copyOf(own);
  }

  @Override
  public void update(String parameterId, NDArray weight, NDArray grad) {
    (own.contains(parameterId) ? other : main).update(parameterId, weight, grad);
  }
}
