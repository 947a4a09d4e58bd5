package io.expresso.model;

/**
 * Sizes a model to a parameter budget, as Dwivedi et al. compare every architecture at 100k (and
 * 500k) parameters: for the spec's depth, the hidden width whose trainable parameter count lies
 * closest to the budget. Counts are exact: each candidate is built and its parameters counted.
 */
public final class ParameterBudget {

  private static final int MAX_HIDDEN = 4096;

  private ParameterBudget() {}

  /**
   * The sized spec (budget kept, hidden chosen) and its exact trainable parameter count.
   *
   * @param parameters the count of {@link #spec}'s model under the head it was sized for
   */
  public record Sized(ModelSpec spec, long parameters) {
    /** How far the count lies from the budget, as a fraction of it. */
    public double relativeError() {
      return Math.abs(parameters - spec.budget()) / (double) spec.budget();
    }
  }

  /** Sizes {@code spec} (which must name a budget) for a model with {@code head}. */
  public static Sized size(ModelSpec spec, Head head) {
    if (spec.budget() <= 0) {
      throw new IllegalArgumentException("model spec " + spec.toText() + " names no parameter budget");
    }
    long budget = spec.budget();
    if (count(spec, head, 1) > budget) {
      throw new IllegalArgumentException("parameter budget " + budget + " is below the smallest "
          + spec.architecture().cliName() + " of " + spec.layers() + " layers (" + count(spec, head, 1)
          + " parameters at hidden 1)");
    }
    // the largest width within the budget, then whichever of it and the next is closer
    int lo = 1;
    int hi = MAX_HIDDEN;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (count(spec, head, mid) <= budget) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    long below = count(spec, head, lo);
    int best = lo;
    long bestCount = below;
    if (lo < MAX_HIDDEN) {
      long above = count(spec, head, lo + 1);
      if (above - budget < budget - below) {
        best = lo + 1;
        bestCount = above;
      }
    }
    return new Sized(spec.withHidden(best), bestCount);
  }

  private static long count(ModelSpec spec, Head head, int hidden) {
    try (GraphModel m = GraphModel.create(spec.withHidden(hidden).withBudgetRemoved(), head, ai.djl.Device.cpu(), 0L)) {
      return m.parameterCount();
    }
  }
}
