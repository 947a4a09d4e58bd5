package io.expresso.stats;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * How a pair's T² threshold is set, chosen once from the settings ({@link #of}) and then asked,
 * never switched on: {@link Rpc} (BREC's fixed F quantile), {@link Rapc} (adaptive, the largest
 * T² of {@link #groups()} within-graph groups of relabelings) or {@link Given} (a value a model's
 * BREC script sets by hand, as DropGNN's 5.0).
 */
public sealed interface ThresholdRule permits ThresholdRule.Rpc, ThresholdRule.Rapc, ThresholdRule.Given {

  /** {@code rpc}, {@code rapc} or a given value such as {@code 5.0}: the name in settings, results and the CLI. */
  String id();

  /** The significance level the rule was chosen for. */
  double alpha();

  /** How many within-graph groups (q relabelings of one graph against q others) the evaluator must embed: 0 for RPC. */
  int groups();

  /**
   * The threshold for q relabelings of embedding size d.
   *
   * @param groups exactly {@link #groups()} within-graph groups
   * @throws IllegalArgumentException if q and d do not suit the rule, or a group is malformed
   */
  Threshold threshold(int q, int d, List<PairedEmbeddings> groups, Convention convention);

  /** Refuses q and d the rule cannot work with (RPC: q ≤ d), before any training is spent. */
  void check(int q, int d);

  /**
   * The rule named {@code id} ({@code rpc} or {@code rapc}, case-insensitive, or a positive T² value
   * such as {@code 5}) at level {@code alpha}.
   *
   * @throws IllegalArgumentException naming the bad value and the accepted ones
   */
  static ThresholdRule of(String id, double alpha) {
    String name = id == null ? "" : id.trim().toLowerCase(Locale.ROOT);
    return switch (name) {
      case "rpc" -> new Rpc(alpha);
      case "rapc" -> new Rapc(alpha);
      default -> new Given(given(id), alpha);
    };
  }

  private static double given(String id) {
    try {
      return Double.parseDouble(id.trim());
    } catch (NumberFormatException | NullPointerException e) {
      throw new IllegalArgumentException("unknown threshold '" + id + "' (expected rpc, rapc or a T² value such as 5)");
    }
  }

  /** BREC's reliable paired comparison: the fixed (q−1)d/(q−d)·F_{d,q−d}(1−α). */
  record Rpc(double alpha) implements ThresholdRule {
    public Rpc {
      checkAlpha(alpha);
    }

    @Override
    public String id() {
      return "rpc";
    }

    @Override
    public int groups() {
      return 0;
    }

    @Override
    public Threshold threshold(int q, int d, List<PairedEmbeddings> groups, Convention convention) {
      return Threshold.rpc(q, d, alpha);
    }

    @Override
    public void check(int q, int d) {
      if (q <= d) {
        throw new IllegalArgumentException("RPC needs q > d, got q=" + q + ", d=" + d);
      }
    }
  }

  /**
   * Reliable adaptive paired comparison: m within-graph groups, m the fewest with 1/(m+1) ≤ α (19
   * for 0.05), so the false-positive rate is bounded by α without a Gaussian assumption.
   */
  record Rapc(double alpha) implements ThresholdRule {
    public Rapc {
      checkAlpha(alpha);
    }

    @Override
    public String id() {
      return "rapc";
    }

    @Override
    public int groups() {
      return Threshold.rapcGroupsFor(alpha);
    }

    @Override
    public Threshold threshold(int q, int d, List<PairedEmbeddings> groups, Convention convention) {
      if (groups.size() != groups()) {
        throw new IllegalArgumentException("RAPC at alpha " + alpha + " needs " + groups() + " within-graph groups, got "
            + groups.size());
      }
      return Threshold.rapc(groups, convention);
    }

    @Override
    public void check(int q, int d) {
      // any q ≥ 2 works: the threshold is an observed maximum, not a distribution's quantile
    }
  }

  /**
   * A T² value given by hand (DropGNN's script judges at 5.0). {@code alpha} is carried so that the
   * settings keep their level; this rule does not use it.
   */
  record Given(double value, double alpha) implements ThresholdRule {
    public Given {
      if (!(value > 0) || Double.isInfinite(value)) {
        throw new IllegalArgumentException("a given T² threshold must be a positive number, got " + value);
      }
      checkAlpha(alpha);
    }

    @Override
    public String id() {
      return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    @Override
    public int groups() {
      return 0;
    }

    @Override
    public Threshold threshold(int q, int d, List<PairedEmbeddings> groups, Convention convention) {
      return Threshold.fixed(value);
    }

    @Override
    public void check(int q, int d) {
      // a given value needs no distribution: any q and d
    }
  }

  private static void checkAlpha(double alpha) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("significance level alpha must lie in (0, 1), got " + alpha);
    }
  }
}
