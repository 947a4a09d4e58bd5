package io.expresso.train;

/**
 * Watches step losses for NaN or infinity (DJL's DivergenceCheckTrainingListener, per step). A
 * non-finite step is skipped — no backward pass, no update — and counted, so one bad batch cannot
 * poison the weights; if embeddings still end up non-finite the pair becomes an error result.
 */
public final class DivergenceGuard {

  private int skipped;

  /** True if the step may proceed; false (and counted) if its loss is not finite. */
  public boolean accept(float loss) {
    if (Float.isFinite(loss)) {
      return true;
    }
    skipped++;
    return false;
  }

  /** Steps skipped so far. */
  public int skipped() {
    return skipped;
  }
}
