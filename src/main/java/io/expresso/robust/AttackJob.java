package io.expresso.robust;

import io.expresso.attack.Budgets;
import io.expresso.attack.PerturbationSpace;
import java.util.Arrays;
import java.util.List;

/**
 * Attack one trained model in one perturbation space on up to {@link Scale#attacked()} correctly
 * predicted test graphs of {@code dataset}, at budgets given as fractions of the mean edge count
 * (the paper: 1, 5, 10, 25%), and score transfer to other models.
 *
 * @param modelId the attacked model (its checkpoint key)
 * @param spec the attacked model's spec, the low-cardinality {@code model} label of metrics
 * @param transferTo ids of the models the adversarial examples are transferred to
 * @param beam beam width; 0 = the default (greedy for P, the scale's width for P^c and P^s)
 * @param budgetFractions increasing fractions in (0, 1]; null = {@link Budgets#PAPER_FRACTIONS}
 *     (so jobs written before this field existed read as the paper's)
 * @param graphs graphs per dataset, 0 for the scale's (as the attacked model's train job)
 */
public record AttackJob(String attackId, String modelId, String spec, PerturbationSpace space, Scale scale,
    String dataset, List<String> transferTo, long seed, int beam, double[] budgetFractions, int graphs) {

  public AttackJob {
    transferTo = List.copyOf(transferTo);
    if (graphs < 0) {
      throw new IllegalArgumentException("graphs must be positive (0 = the scale's), got " + graphs);
    }
    if (beam < 0) {
      throw new IllegalArgumentException("beam width must be at least 1 (0 = default), got " + beam);
    }
    budgetFractions = budgetFractions == null ? Budgets.PAPER_FRACTIONS.clone() : budgetFractions.clone();
    if (budgetFractions.length == 0) {
      throw new IllegalArgumentException("at least one budget is needed");
    }
    for (int b = 0; b < budgetFractions.length; b++) {
      double f = budgetFractions[b];
      if (!(f > 0 && f <= 1)) {
        throw new IllegalArgumentException("budget " + f + " is not a fraction in (0, 1] of the mean edge count");
      }
      if (b > 0 && !(f > budgetFractions[b - 1])) {
        throw new IllegalArgumentException("budgets must increase: " + budgetFractions[b - 1] + " then " + f);
      }
    }
  }

  /** An attack on data of the scale's size. */
  public AttackJob(String attackId, String modelId, String spec, PerturbationSpace space, Scale scale,
      String dataset, List<String> transferTo, long seed, int beam, double[] budgetFractions) {
    this(attackId, modelId, spec, space, scale, dataset, transferTo, seed, beam, budgetFractions, 0);
  }

  /** Graphs per dataset: those the attacked model was trained and tested on. */
  public int datasetSize() {
    return graphs > 0 ? graphs : scale.datasetSize();
  }

  /** The study's attack: default beam, the paper's budgets. */
  public AttackJob(String attackId, String modelId, String spec, PerturbationSpace space, Scale scale,
      String dataset, List<String> transferTo, long seed) {
    this(attackId, modelId, spec, space, scale, dataset, transferTo, seed, 0, null);
  }

  /** The beam width used: {@link #beam()} if set; else greedy for P, the scale's width for P^c and P^s (the paper: 10). */
  public int beamWidth() {
    return beam > 0 ? beam : space == PerturbationSpace.ANY ? 1 : scale.beamWidth();
  }

  @Override
  public double[] budgetFractions() {
    return budgetFractions.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AttackJob j && attackId.equals(j.attackId) && modelId.equals(j.modelId)
        && spec.equals(j.spec) && space == j.space && scale == j.scale && dataset.equals(j.dataset)
        && transferTo.equals(j.transferTo) && seed == j.seed && beam == j.beam
        && Arrays.equals(budgetFractions, j.budgetFractions) && graphs == j.graphs;
  }

  @Override
  public int hashCode() {
    return 31 * attackId.hashCode() + Arrays.hashCode(budgetFractions);
  }

  @Override
  public String toString() {
    return "AttackJob[" + attackId + ", " + space.cliName() + ", beam " + beamWidth() + ", budgets "
        + Arrays.toString(budgetFractions) + "]";
  }
}
