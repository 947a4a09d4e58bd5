package io.expresso.attack;

import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.util.List;

/**
 * The outcome of one attack on one graph, judged as Campi et al. judge it (Alg. 1): the search
 * runs every step up to its budget Δ, and the attack with budget t ≤ Δ returns the graph of
 * largest loss in the beam after step t ({@link #at(int)}); it succeeded at t when that graph is an
 * adversarial example (Def. 4.1). One search at the largest budget answers every smaller budget,
 * because the first t steps of a search with budget Δ are the search with budget t.
 *
 * <p>Success is not monotone in t: a step may have to take a worse graph to reach a better one.
 * {@link #firstAdversarialStep()} keeps the earlier, optimistic reading (some scored candidate was
 * adversarial), as extra information only.
 *
 * @param cleanCorrect condition (i): the model's rounded prediction on the clean graph is right;
 *     when false the graph is not attacked (the paper attacks correctly predicted graphs only)
 * @param firstAdversarialStep the first step at which any scored candidate (not only the beam's
 *     best) was an adversarial example, 0 when none was
 * @param steps entry t − 1: the best graph of the beam after step t; shorter than {@code budget}
 *     when the space was empty around every beam member before the budget was spent
 * @param lossHistory entry 0 the clean loss, entry t the largest loss in the beam after step t
 * @param perturbationsEvaluated perturbed graphs scored by the model
 * @param flipsCounted flips whose exact count was computed (including those outside the space)
 */
public record AttackResult(Pattern pattern, PerturbationSpace space, int budget, int beamWidth,
    String cleanGraph6, long cleanCount, double cleanPrediction, boolean cleanCorrect,
    int firstAdversarialStep, List<Step> steps,
    double[] lossHistory, long perturbationsEvaluated, long flipsCounted) {

  /**
   * The best graph of the beam after one step: what an attack with that budget returns.
   *
   * @param adversarial Def. 4.1 holds for it against the clean graph
   */
  public record Step(String graph6, long count, double prediction, boolean adversarial) {

    public Graph graph() {
      return Graph6.decode(graph6);
    }
  }

  public AttackResult {
    steps = steps == null ? List.of() : List.copyOf(steps);
  }

  /**
   * What the attack with budget {@code flips} returned: the best of its final beam; the last beam
   * when the search ran out of flips earlier; null when no step was taken (graph not attacked, or
   * no admissible flip at all).
   */
  public Step at(int flips) {
    if (flips < 1 || steps.isEmpty()) {
      return null;
    }
    return steps.get(Math.min(flips, steps.size()) - 1);
  }

  /** Whether the attack with budget {@code flips} returned an adversarial example. */
  public boolean adversarialAt(int flips) {
    Step s = at(flips);
    return s != null && s.adversarial();
  }

  /** Whether the attack with the full budget returned an adversarial example. */
  public boolean success() {
    return adversarialAt(budget);
  }

  /** The graph the full-budget attack returned (the clean graph when no step was taken). */
  public String adversarialGraph6() {
    Step s = at(budget);
    return s == null ? cleanGraph6 : s.graph6();
  }

  public long adversarialCount() {
    Step s = at(budget);
    return s == null ? cleanCount : s.count();
  }

  public double adversarialPrediction() {
    Step s = at(budget);
    return s == null ? cleanPrediction : s.prediction();
  }

  public Graph cleanGraph() {
    return Graph6.decode(cleanGraph6);
  }

  public Graph adversarialGraph() {
    return Graph6.decode(adversarialGraph6());
  }
}
