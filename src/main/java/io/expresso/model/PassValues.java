package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;

/**
 * Parameters' values for one pass, owned by the pass. DJL attaches an op's result to the manager of
 * its first operand: an op applied to a parameter's own array (a table looked up, {@code eps + 1},
 * a start vector repeated) keeps its result, and all that is computed from it, on the model's
 * manager until the model closes. Each training step and embedding pass then added its
 * activations to what the pair holds (on the CPU, before this: SSWL_P 95 MB per batch of
 * 11-vertex graphs, Graphormer 20 MB, KP-GNN's start vector the whole pass), far past the memory
 * budget that sizes one pass; on a GPU the pairs of 16 slots held 103–129 GiB where their budgets
 * made 70 GiB.
 */
final class PassValues {

  private PassValues() {}

  /**
   * {@code p}'s value for the pass that {@code input} belongs to: a view of it (gradients flow to
   * the parameter as through the array itself) owned by the input's manager.
   */
  static NDArray of(ParameterStore ps, Parameter p, NDArray input, boolean training) {
    NDArray value = ps.getValue(p, input.getDevice(), training);
    if (value.getManager() == input.getManager()) {
      return value;
    }
    NDArray view = value.reshape(value.getShape());
    view.attach(input.getManager());
    return view;
  }
}
