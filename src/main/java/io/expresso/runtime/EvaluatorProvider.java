package io.expresso.runtime;

import java.util.List;

/**
 * How other packages plug evaluators in without touching the runtime: implement this, list the
 * class in {@code META-INF/services/io.expresso.runtime.EvaluatorProvider}, and
 * {@link EvaluatorRegistry#defaults()} registers it (e.g. the GNN pair evaluator, train and attack
 * evaluators).
 */
public interface EvaluatorProvider {

  /** Adds this provider's evaluators to {@code registry}. */
  void register(EvaluatorRegistry registry);

  /**
   * Model specs {@code expresso demo} should run on the built-in suite beside 1-WL and 3-WL
   * (e.g. one small GNN); empty if none.
   */
  default List<String> demoModels() {
    return List.of();
  }
}
