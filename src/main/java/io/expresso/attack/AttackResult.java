package io.expresso.attack;

import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;

/**
 * The outcome of one attack on one graph.
 *
 * @param cleanCorrect condition (i): the model's rounded prediction on the clean graph is right;
 *     when false the graph is not attacked (the paper attacks correctly predicted graphs only)
 * @param success an adversarial example was found within the budget
 * @param firstSuccessBudget the number of flips of the first adversarial example, 0 when none
 * @param adversarialGraph6 the adversarial example in graph6 when {@code success}; otherwise the
 *     graph of largest loss in the final beam (Alg. 1's return value), or the clean graph if no
 *     step was possible
 * @param lossHistory entry 0 the clean loss, entry t the largest loss in the beam after step t
 * @param perturbationsEvaluated perturbed graphs scored by the model
 * @param flipsCounted flips whose exact count was computed (including those outside the space)
 */
public record AttackResult(Pattern pattern, PerturbationSpace space, int budget, int beamWidth,
    String cleanGraph6, long cleanCount, double cleanPrediction, boolean cleanCorrect,
    boolean success, int firstSuccessBudget,
    String adversarialGraph6, long adversarialCount, double adversarialPrediction,
    double[] lossHistory, long perturbationsEvaluated, long flipsCounted) {

  /** Whether an adversarial example was found with at most {@code flips} flips. */
  public boolean succeededWithin(int flips) {
    return success && firstSuccessBudget <= flips;
  }

  public Graph cleanGraph() {
    return Graph6.decode(cleanGraph6);
  }

  public Graph adversarialGraph() {
    return Graph6.decode(adversarialGraph6);
  }
}
