package io.expresso.attack;

/**
 * Definition 4.1 of Campi et al. With ℓ(G) = |f(G) − C(G)|, G̃ is an adversarial example for f
 * on G when (i) ⌊f(G) + 0.5⌋ = C(G), (ii) ⌊f(G̃) + 0.5⌋ ≠ C(G̃) and (iii) (ℓ(G̃) − ℓ(G)) / ℓ(G) > δ.
 *
 * <p>When ℓ(G) = 0 the ratio in (iii) is read as +∞ for ℓ(G̃) > 0 (which (ii) implies), so (iii)
 * holds. A NaN prediction is never correct and never adversarial.
 *
 * @param delta the relative margin δ (the paper uses 1)
 */
public record AdversarialRule(double delta) {

  public AdversarialRule {
    if (!(delta >= 0) || Double.isInfinite(delta)) {
      throw new IllegalArgumentException("margin delta must be finite and >= 0, got " + delta);
    }
  }

  /** The paper's setting, δ = 1. */
  public static AdversarialRule paper() {
    return new AdversarialRule(1.0);
  }

  /** ⌊f + 0.5⌋: rounding half up. */
  public static double round(double prediction) {
    return Math.floor(prediction + 0.5);
  }

  /** Condition (i)/(ii): the rounded prediction equals the count. */
  public static boolean correct(double prediction, long count) {
    return round(prediction) == count;
  }

  /** ℓ = |f − C|. */
  public static double loss(double prediction, long count) {
    return Math.abs(prediction - count);
  }

  /** Conditions (i), (ii) and (iii) together. */
  public boolean isAdversarial(double cleanPrediction, long cleanCount, double perturbedPrediction, long perturbedCount) {
    if (Double.isNaN(cleanPrediction) || Double.isNaN(perturbedPrediction)) {
      return false;
    }
    if (!correct(cleanPrediction, cleanCount) || correct(perturbedPrediction, perturbedCount)) {
      return false;
    }
    double clean = loss(cleanPrediction, cleanCount);
    double perturbed = loss(perturbedPrediction, perturbedCount);
    if (clean == 0) {
      return perturbed > 0;
    }
    return (perturbed - clean) / clean > delta;
  }
}
