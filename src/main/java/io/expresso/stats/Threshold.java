package io.expresso.stats;

import java.util.List;
import org.apache.commons.math3.distribution.FDistribution;

/**
 * The T² value above which a pair counts as distinguished.
 *
 * <ul>
 *   <li>{@link Kind#RPC}: the fixed (q−1)d/(q−d) · F_{d,q−d}(1−α), the upper α quantile of
 *       Hotelling's T² under H₀ (72.34 for q = 32, d = 16, α = 0.05 — BREC's THRESHOLD).
 *   <li>{@link Kind#RAPC}: adaptive, the largest T² among m within-graph groups (each group: q
 *       relabelings of one graph against q other relabelings of the same graph).
 *   <li>{@link Kind#FIXED}: any value given by hand.
 * </ul>
 *
 * @param kind how the value was obtained
 * @param value the threshold
 */
public record Threshold(Kind kind, double value) {

  /** How a threshold was obtained. */
  public enum Kind { RPC, RAPC, FIXED }

  public Threshold {
    if (kind == null) {
      throw new IllegalArgumentException("threshold kind is required");
    }
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("threshold must be a number, got NaN");
    }
  }

  /** BREC's published setting: q = 32, d = 16, α = 0.05 (≈ 72.34). */
  public static Threshold rpc() {
    return rpc(32, 16, 0.05);
  }

  /**
   * The RPC threshold (q−1)d/(q−d) · F_{d,q−d}(1−α).
   *
   * @throws IllegalArgumentException unless 1 ≤ d &lt; q and 0 &lt; α &lt; 1
   */
  public static Threshold rpc(int q, int d, double alpha) {
    return new Threshold(Kind.RPC, rpcValue(q, d, alpha));
  }

  /** The value of {@link #rpc(int, int, double)}. */
  public static double rpcValue(int q, int d, double alpha) {
    if (d < 1 || q <= d) {
      throw new IllegalArgumentException("RPC threshold needs 1 <= d < q (F has d and q-d degrees of freedom), got q="
          + q + ", d=" + d);
    }
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("significance level alpha must be in (0, 1), got " + alpha);
    }
    // null RNG: we only need the quantile function, not sampling.
    FDistribution f = new FDistribution(null, d, q - d);
    return (q - 1.0) * d / (q - d) * f.inverseCumulativeProbability(1 - alpha);
  }

  /** A threshold given by hand. */
  public static Threshold fixed(double value) {
    return new Threshold(Kind.FIXED, value);
  }

  /**
   * RAPC's adaptive threshold (BREC, App. I): the largest T² over m within-graph groups. Under H₀
   * (the model cannot tell G from H) the test statistic and the m group statistics are
   * exchangeable, so P(T²_test exceeds all of them) ≤ 1/(m+1): the false-positive rate is bounded
   * by {@link #rapcFalsePositiveBound(int)} without any Gaussian assumption.
   *
   * @param groups m ≥ 1 groups; in each, {@code first()} holds q relabelings of one graph (G or H)
   *     and {@code second()} q other relabelings of that same graph, paired row by row
   * @param convention the convention used for every T² (the same as for the test statistic)
   * @throws IllegalArgumentException if there are no groups or a group is malformed
   */
  public static Threshold rapc(List<PairedEmbeddings> groups, Convention convention) {
    if (groups == null || groups.isEmpty()) {
      throw new IllegalArgumentException("RAPC needs at least one within-graph group of relabelings");
    }
    double max = Double.NEGATIVE_INFINITY;
    for (int g = 0; g < groups.size(); g++) {
      PairedEmbeddings group = groups.get(g);
      if (group == null) {
        throw new IllegalArgumentException("RAPC group " + g + " is missing (null)");
      }
      double t2;
      try {
        t2 = group.t2(convention);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("RAPC group " + g + ": " + e.getMessage(), e);
      }
      max = Math.max(max, t2);
    }
    return new Threshold(Kind.RAPC, max);
  }

  /**
   * The fewest within-graph groups m whose bound 1/(m+1) is at most {@code alpha} (19 for 0.05):
   * how many groups an evaluator should draw (split between G and H) to match RPC's level.
   */
  public static int rapcGroupsFor(double alpha) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("significance level alpha must be in (0, 1), got " + alpha);
    }
    return Math.max(1, (int) Math.ceil(1 / alpha - 1 - 1e-9));
  }

  /** 1/(m+1): RAPC's false-positive bound with m within-graph groups. */
  public static double rapcFalsePositiveBound(int groups) {
    if (groups < 1) {
      throw new IllegalArgumentException("RAPC needs at least one group, got " + groups);
    }
    return 1.0 / (groups + 1);
  }
}
