package io.expresso.train;

/**
 * BREC's early stop: halt once an epoch's mean loss is below the threshold. An epoch without a loss
 * (NaN: every step skipped) never stops training.
 */
public final class LossThresholdStop implements EpochListener {

  private final double threshold;

  public LossThresholdStop(double threshold) {
    this.threshold = threshold;
  }

  @Override
  public boolean afterEpoch(int epoch, double meanLoss) {
    return !Double.isNaN(meanLoss) && meanLoss < threshold;
  }
}
