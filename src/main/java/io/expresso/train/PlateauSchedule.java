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

  /** What a resumed run needs: the rate, the best loss seen and the epochs since it. */
  public record State(float rate, double best, int badEpochs) {}

  public State state() {
    return new State(rate, best, badEpochs);
  }

  /** Continues from a saved state (the factor, patience and floor stay this schedule's). */
  public void restore(State s) {
    rate = s.rate();
    best = s.best();
    badEpochs = s.badEpochs();
  }

  @Override
  public float getNewValue(int numUpdate) {
    return rate;
  }

  /** Decays the rate now, as a plateau would (a diverged step: the rate was too large). */
  public void decay() {
    rate = Math.max(minRate, rate * factor);
    badEpochs = 0;
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
