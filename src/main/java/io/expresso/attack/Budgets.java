package io.expresso.attack;

/** Flip budgets given as a fraction of a dataset's mean edge count (the paper: 1%, 5%, 10%, 25%). */
public final class Budgets {

  /** The fractions of Campi et al. §6.1. */
  public static final double[] PAPER_FRACTIONS = {0.01, 0.05, 0.10, 0.25};

  private Budgets() {}

  /** ⌈fraction · meanEdges⌉ flips, at least 1. */
  public static int fromFraction(double fraction, double meanEdges) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("budget fraction must be in (0, 1], got " + fraction);
    }
    if (!(meanEdges >= 0) || Double.isInfinite(meanEdges)) {
      throw new IllegalArgumentException("mean edge count must be finite and >= 0, got " + meanEdges);
    }
    return Math.max(1, (int) Math.ceil(fraction * meanEdges - 1e-9));
  }

  /** {@link #fromFraction} for each fraction. */
  public static int[] fromFractions(double[] fractions, double meanEdges) {
    int[] out = new int[fractions.length];
    for (int b = 0; b < fractions.length; b++) {
      out[b] = fromFraction(fractions[b], meanEdges);
    }
    return out;
  }
}
