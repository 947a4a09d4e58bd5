package io.expresso.robust;

import io.expresso.attack.PerturbationSpace;
import java.util.List;

/**
 * Attack one trained model in one perturbation space on up to {@link Scale#attacked()} correctly
 * predicted test graphs, at budgets 1, 5, 10, 25% of the mean edge count, and score transfer to
 * the other seeds' models.
 *
 * @param modelId the attacked model (its checkpoint key)
 * @param spec the attacked model's spec, the low-cardinality {@code model} label of metrics
 * @param transferTo ids of the models the adversarial examples are transferred to
 */
public record AttackJob(String attackId, String modelId, String spec, PerturbationSpace space, Scale scale,
    String dataset, List<String> transferTo, long seed) {

  public AttackJob {
    transferTo = List.copyOf(transferTo);
  }

  /** Greedy for P, the scale's beam width for the preserving spaces (the paper: 10). */
  public int beamWidth() {
    return space == PerturbationSpace.ANY ? 1 : scale.beamWidth();
  }
}
