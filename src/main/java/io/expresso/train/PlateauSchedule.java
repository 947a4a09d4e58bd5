package io.expresso.train;

import ai.djl.training.tracker.Tracker;

/**
 * PyTorch's {@code ReduceLROnPlateau} (mode min, relative threshold 1e-4, no cooldown) as a DJL
 * learning-rate tracker: the optimizer reads the current rate, the trainer reports epoch losses.
 */
public final class PlateauSchedule implements Tracker, EpochListener {

  private static final double REL_THRESHOLD = 1e-4;

  private final float factor;
  private final int patience;
  private final float minRate;
  private float rate;
  private double best = Double.POSITIVE_INFINITY;
  private int badEpochs;

  public PlateauSchedule(float initialRate, float factor, int patience, float minRate) {
    this.rate = initialRate;
    this.factor = factor;
    this.patience = patience;
    this.minRate = minRate;
  }

  @Override
  public float getNewValue(int numUpdate) {
    return rate;
  }

  /** The current learning rate. */
  public float rate() {
    return rate;
  }

  @Override
  public boolean afterEpoch(int epoch, double meanLoss) {
    if (meanLoss < best * (1 - REL_THRESHOLD)) {
      best = meanLoss;
      badEpochs = 0;
    } else if (++badEpochs > patience) {
      rate = Math.max(minRate, rate * factor);
      badEpochs = 0;
    }
    return false;
  }
}
