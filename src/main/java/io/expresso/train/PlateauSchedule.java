package io.expresso.train;

import ai.djl.training.tracker.Tracker;
import java.util.Locale;

/**
 * PyTorch's {@code ReduceLROnPlateau} (mode min, relative threshold 1e-4, no cooldown, a reduction
 * smaller than eps 1e-8 skipped) as a DJL learning-rate tracker: the optimizer reads the current
 * rate, the trainer reports epoch losses.
 */
public final class PlateauSchedule implements Tracker, EpochListener {

  private static final double REL_THRESHOLD = 1e-4;
  /** PyTorch's {@code eps}: a reduction of the rate by no more than this is not applied. */
  private static final double EPS = 1e-8;

  /**
   * The schedule's settings, as a result records them.
   *
   * @param factor multiply the rate by this when the loss stalls
   * @param patience epochs without improvement tolerated
   * @param minRate floor of the rate
   */
  public record Settings(float factor, int patience, float minRate) {

    /** {@code ReduceLROnPlateau(optimizer)}: PyTorch's defaults, what every BREC script calls. */
    public static final Settings PYTORCH = new Settings(0.1f, 10, 0f);
    /** Expresso's schedule before issue 30 (factor 0.5, patience 5, floor 1e-6), for results recorded with it. */
    public static final Settings LEGACY = new Settings(0.5f, 5, 1e-6f);

    public Settings {
      if (!(factor > 0 && factor < 1) || patience < 0 || !(minRate >= 0)) {
        throw new IllegalArgumentException("plateau factor must lie in (0, 1), patience and min-lr >= 0; got factor "
            + factor + ", patience " + patience + ", min-lr " + minRate);
      }
    }

    /** {@code pytorch}, {@code legacy} or {@code plateau:factor=F,patience=P,min-lr=M} (any key may be left out: PyTorch's). */
    public static Settings parse(String text) {
      String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
      if (t.equals("pytorch")) {
        return PYTORCH;
      }
      if (t.equals("legacy")) {
        return LEGACY;
      }
      if (!t.startsWith("plateau")) {
        throw new IllegalArgumentException("schedule '" + text + "' is not pytorch, legacy or plateau:factor=F,patience=P,min-lr=M");
      }
      float factor = PYTORCH.factor;
      int patience = PYTORCH.patience;
      float min = PYTORCH.minRate;
      String rest = t.substring("plateau".length());
      if (!rest.isEmpty()) {
        if (!rest.startsWith(":")) {
          throw new IllegalArgumentException("schedule '" + text + "': expected plateau:key=value,...");
        }
        for (String kv : rest.substring(1).split(",")) {
          String[] p = kv.split("=", 2);
          try {
            switch (p.length == 2 ? p[0].strip() : "") {
              case "factor" -> factor = Float.parseFloat(p[1]);
              case "patience" -> patience = Integer.parseInt(p[1].strip());
              case "min-lr" -> min = Float.parseFloat(p[1]);
              default -> throw new IllegalArgumentException("schedule '" + text + "': unknown setting '" + kv
                  + "' (factor, patience, min-lr)");
            }
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("schedule '" + text + "': '" + kv + "' is not a number");
          }
        }
      }
      return new Settings(factor, patience, min);
    }

    /** The form {@link #parse} reads back, e.g. {@code plateau:factor=0.1,patience=10,min-lr=0.0}. */
    public String text() {
      return "plateau:factor=" + factor + ",patience=" + patience + ",min-lr=" + minRate;
    }

    /** A schedule on this rate. */
    public PlateauSchedule start(float initialRate) {
      return new PlateauSchedule(initialRate, factor, patience, minRate);
    }
  }

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
    reduce();
    badEpochs = 0;
  }

  private void reduce() {
    float next = Math.max(minRate, rate * factor);
    if (rate - next > EPS) {
      rate = next;
    }
  }

  /** The current learning rate. */
  public float rate() {
    return rate;
  }

  /** An epoch without a loss (NaN: every step skipped) counts as one without improvement, as in PyTorch. */
  @Override
  public boolean afterEpoch(int epoch, double meanLoss) {
    if (!Double.isNaN(meanLoss) && meanLoss < best * (1 - REL_THRESHOLD)) {
      best = meanLoss;
      badEpochs = 0;
    } else if (++badEpochs > patience) {
      reduce();
      badEpochs = 0;
    }
    return false;
  }
}
