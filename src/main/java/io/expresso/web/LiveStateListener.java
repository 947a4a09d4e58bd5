package io.expresso.web;

import io.expresso.proto.v1.AttackResult;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Result;
import io.expresso.runtime.kafka.ResultListener;

/**
 * Feeds the live page's {@link LiveState} from the aggregator's stream of unique results; a retry's
 * success that supersedes an error replaces it on the page.
 */
public final class LiveStateListener implements ResultListener {

  private final LiveState state;

  public LiveStateListener(LiveState state) {
    this.state = state;
  }

  @Override
  public void onResult(Result r) {
    String experiment = experimentOf(r);
    String kind = kindOf(r);
    if (r.hasProvenance() && !r.getProvenance().getWorkerId().isEmpty()) {
      state.worker(r.getProvenance().getWorkerId(), r.getProvenance().getDevice(),
          r.getProvenance().getComputeSeconds(), System.currentTimeMillis());
    }
    if (r.hasError()) {
      if (kind.equals("train")) {
        state.trainFinished(experiment, r.getTaskId(), false);
      }
      state.error(experiment, kind);
      return;
    }
    if (r.getPayloadCase() == Result.PayloadCase.TRAIN) {
      state.trainFinished(experiment, r.getTaskId(), true);
    }
    switch (r.getPayloadCase()) {
      case PAIR -> {
        PairResult p = r.getPair();
        state.pair(experiment, p.getSuiteId(), p.getCategory(), p.getMethod(), p.getSeed(), p.getDistinguished(),
            p.getReliable());
      }
      case ATTACK -> attack(experiment, r.getAttack());
      default -> state.other(experiment, kind);
    }
  }

  @Override
  public void onSuperseded(Result later) {
    if (later.hasError()) {
      return; // a newer error for a task already shown as failed
    }
    state.errorSuperseded(experimentOf(later), kindOf(later)); // the error's: same task
    onResult(later);
  }

  private static String experimentOf(Result r) {
    return r.getExperimentId().isEmpty() ? "(none)" : r.getExperimentId();
  }

  private static String kindOf(Result r) {
    return r.getProvenance().getTaskKind().isEmpty() ? "unknown" : r.getProvenance().getTaskKind();
  }

  private void attack(String experiment, AttackResult a) {
    for (GraphOutcome g : a.getOutcomesList()) {
      int n = Math.min(g.getBudgetsCount(), g.getAdversarialCount());
      if (n == 0) {
        continue;
      }
      int[] budgets = new int[n];
      boolean[] hit = new boolean[n];
      for (int i = 0; i < n; i++) {
        budgets[i] = g.getBudgets(i);
        hit[i] = g.getAdversarial(i);
      }
      double[] fractions = a.getBudgetFractionsCount() == n
          ? a.getBudgetFractionsList().stream().mapToDouble(Double::doubleValue).toArray() : new double[0];
      state.attack(experiment, a.getModel(), a.getPattern(), a.getSpace(), fractions, budgets, hit);
    }
    state.other(experiment, "attack");
  }
}
