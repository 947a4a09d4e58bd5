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

  /**
   * Entry b: the share of attacked graphs for which the attack with budget {@code budgets[b]}
   * returned an adversarial example ({@link AttackResult#adversarialAt}).
   */
  public static double[] successRate(List<AttackResult> results, int[] budgets) {
    double[] out = new double[budgets.length];
    List<AttackResult> attacked = attacked(results);
    for (int b = 0; b < budgets.length; b++) {
      int hits = 0;
      for (AttackResult r : attacked) {
        if (r.adversarialAt(budgets[b])) {
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
   * Entry [r][b]: the example the attack of result r returned at budget {@code budgets[b]} is
   * adversarial (Def. 4.1, same clean and perturbed graph) for the attacked model and for every
   * one of {@code others}. Each other model is called once, on all clean graphs and distinct
   * examples together.
   */
  public static boolean[][] transfers(List<AttackResult> results, List<CountModel> others, AdversarialRule rule,
      int[] budgets) {
    boolean[][] out = new boolean[results.size()][budgets.length];
    List<Graph> graphs = new ArrayList<>();
    int[][] index = new int[results.size()][budgets.length]; // position of the example in `graphs`
    int[] cleanIndex = new int[results.size()];
    for (int r = 0; r < results.size(); r++) {
      AttackResult res = results.get(r);
      cleanIndex[r] = -1;
      java.util.Map<AttackResult.Step, Integer> seen = new java.util.IdentityHashMap<>();
      for (int b = 0; b < budgets.length; b++) {
        index[r][b] = -1;
        if (!res.adversarialAt(budgets[b])) {
          continue;
        }
        if (cleanIndex[r] < 0) {
          cleanIndex[r] = graphs.size();
          graphs.add(res.cleanGraph());
        }
        AttackResult.Step step = res.at(budgets[b]);
        Integer at = seen.get(step); // repeated budgets (1, 1, 2, 4) share one example
        if (at == null) {
          at = graphs.size();
          graphs.add(step.graph());
          seen.put(step, at);
        }
        index[r][b] = at;
        out[r][b] = true;
      }
    }
    for (CountModel other : others) {
      if (graphs.isEmpty()) {
        break;
      }
      double[] f = other.predict(graphs);
      if (f == null || f.length != graphs.size()) {
        throw new IllegalStateException("model returned a wrong number of predictions for " + graphs.size() + " graphs");
      }
      for (int r = 0; r < results.size(); r++) {
        AttackResult res = results.get(r);
        for (int b = 0; b < budgets.length; b++) {
          if (out[r][b]) {
            out[r][b] = rule.isAdversarial(f[cleanIndex[r]], res.cleanCount(), f[index[r][b]],
                res.at(budgets[b]).count());
          }
        }
      }
    }
    return out;
  }

  /** Entry b: the share of attacked graphs whose example at budget {@code budgets[b]} transfers to all others. */
  public static double[] transferRate(List<AttackResult> results, List<CountModel> others,
      AdversarialRule rule, int[] budgets) {
    return transferRate(results, transfers(results, others, rule, budgets), budgets);
  }

  /**
   * Entry b: the share of attacked graphs whose example at budget b transfers, given which
   * transfer ({@link #transfers}, one column per budget).
   */
  public static double[] transferRate(List<AttackResult> results, boolean[][] transfers, int[] budgets) {
    if (transfers.length != results.size()) {
      throw new IllegalArgumentException(transfers.length + " transfer rows for " + results.size() + " results");
    }
    double[] out = new double[budgets.length];
    int attacked = attacked(results).size();
    for (int b = 0; b < budgets.length; b++) {
      int hits = 0;
      for (int r = 0; r < results.size(); r++) {
        if (results.get(r).cleanCorrect() && transfers[r][b]) {
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
