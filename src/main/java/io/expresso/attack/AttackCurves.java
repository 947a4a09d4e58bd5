package io.expresso.attack;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * Aggregates over many attacks (Campi et al. §6.1, Fig. 5 and Table 1). Rates are over the
 * attacked graphs, i.e. those the model predicted correctly ({@link AttackResult#cleanCorrect()});
 * they are NaN when there is none.
 */
public final class AttackCurves {

  private AttackCurves() {}

  /** Entry b: the share of attacked graphs with an adversarial example within {@code budgets[b]} flips. */
  public static double[] successRate(List<AttackResult> results, int[] budgets) {
    double[] out = new double[budgets.length];
    List<AttackResult> attacked = attacked(results);
    for (int b = 0; b < budgets.length; b++) {
      int hits = 0;
      for (AttackResult r : attacked) {
        if (r.succeededWithin(budgets[b])) {
          hits++;
        }
      }
      out[b] = attacked.isEmpty() ? Double.NaN : (double) hits / attacked.size();
    }
    return out;
  }

  /**
   * The paper's "NR" number: the area under the success-rate curve over the budget axis
   * (trapezoids between the given budgets, e.g. the fractions 1%, 5%, 10%, 25%), divided by the
   * area under the unity function over the same range, i.e. by {@code x[last] − x[0]}. It is 1
   * when every attack already succeeds at the smallest budget. With one budget it is that rate.
   */
  public static double normalisedAuc(double[] budgets, double[] rates) {
    if (budgets.length != rates.length || budgets.length == 0) {
      throw new IllegalArgumentException(budgets.length + " budgets for " + rates.length + " rates");
    }
    if (budgets.length == 1) {
      return rates[0];
    }
    double area = 0;
    for (int b = 1; b < budgets.length; b++) {
      if (!(budgets[b] > budgets[b - 1])) {
        throw new IllegalArgumentException("budgets must increase: " + budgets[b - 1] + " then " + budgets[b]);
      }
      area += (budgets[b] - budgets[b - 1]) * (rates[b] + rates[b - 1]) / 2;
    }
    return area / (budgets[budgets.length - 1] - budgets[0]);
  }

  /**
   * Per attack: whether its adversarial example is also adversarial (Def. 4.1, same clean and
   * perturbed graph) for every one of {@code others}. False for attacks that did not succeed.
   * Each other model is called once, on all clean and adversarial graphs together.
   */
  public static boolean[] transfers(List<AttackResult> results, List<CountModel> others, AdversarialRule rule) {
    boolean[] out = new boolean[results.size()];
    List<Integer> successful = new ArrayList<>();
    List<Graph> graphs = new ArrayList<>();
    for (int r = 0; r < results.size(); r++) {
      if (results.get(r).success()) {
        successful.add(r);
        graphs.add(results.get(r).cleanGraph());
        graphs.add(results.get(r).adversarialGraph());
      }
    }
    for (int r : successful) {
      out[r] = true;
    }
    for (CountModel other : others) {
      if (successful.isEmpty()) {
        break;
      }
      double[] f = other.predict(graphs);
      if (f == null || f.length != graphs.size()) {
        throw new IllegalStateException("model returned a wrong number of predictions for " + graphs.size() + " graphs");
      }
      for (int s = 0; s < successful.size(); s++) {
        AttackResult r = results.get(successful.get(s));
        out[successful.get(s)] &= rule.isAdversarial(f[2 * s], r.cleanCount(), f[2 * s + 1], r.adversarialCount());
      }
    }
    return out;
  }

  /** Entry b: the share of attacked graphs whose example within {@code budgets[b]} flips transfers to all others. */
  public static double[] transferRate(List<AttackResult> results, List<CountModel> others,
      AdversarialRule rule, int[] budgets) {
    return transferRate(results, transfers(results, others, rule), budgets);
  }

  /**
   * Entry b: the share of attacked graphs whose example within {@code budgets[b]} flips transfers,
   * given which transfer ({@link #transfers}).
   */
  public static double[] transferRate(List<AttackResult> results, boolean[] transfers, int[] budgets) {
    double[] out = new double[budgets.length];
    int attacked = attacked(results).size();
    for (int b = 0; b < budgets.length; b++) {
      int hits = 0;
      for (int r = 0; r < results.size(); r++) {
        if (transfers[r] && results.get(r).succeededWithin(budgets[b])) {
          hits++;
        }
      }
      out[b] = attacked == 0 ? Double.NaN : (double) hits / attacked;
    }
    return out;
  }

  private static List<AttackResult> attacked(List<AttackResult> results) {
    return results.stream().filter(AttackResult::cleanCorrect).toList();
  }
}
