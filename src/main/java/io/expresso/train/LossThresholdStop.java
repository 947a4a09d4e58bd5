package io.expresso.train;

/** BREC's early stop: halt once an epoch's mean loss is below the threshold. */
public final class LossThresholdStop implements EpochListener {

  private final double threshold;

  public LossThresholdStop(double threshold) {
    this.threshold = threshold;
  }

  @Override
  public boolean afterEpoch(int epoch, double meanLoss) {
    return meanLoss < threshold;
  }
}
