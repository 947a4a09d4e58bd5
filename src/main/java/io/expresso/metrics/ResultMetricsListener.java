package io.expresso.metrics;

import io.expresso.proto.v1.AttackResult;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TrainResult;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.ResultListener;

/**
 * Feeds {@link ResultMeters} from the aggregator's stream of unique results: pair outcomes and T²,
 * training epochs and loss (pair and train results), attack successes per budget, and tasks by
 * outcome. Only successes feed the science meters, so a retry's success that supersedes an error
 * is counted there for the first time; the error it replaces leaves the failed-tasks gauge. Every
 * record for a task already read (ignored, or replacing an error) counts as a duplicate record.
 */
public final class ResultMetricsListener implements ResultListener {

  private final ResultMeters meters;

  public ResultMetricsListener(ResultMeters meters) {
    this.meters = meters;
    meters.registerKinds(java.util.Arrays.stream(TaskKind.values()).map(TaskKind::label).toList());
  }

  @Override
  public void onResult(Result r) {
    meters.result(kindOf(r), !r.hasError());
    if (!r.hasError()) {
      success(r);
    }
  }

  @Override
  public void onDuplicate(Result r) {
    meters.duplicate(kindOf(r));
  }

  @Override
  public void onSuperseded(Result later) {
    meters.duplicate(kindOf(later));
    if (later.hasError()) {
      return; // a newer error for a task that already counts as failed: nothing changes
    }
    meters.errorSuperseded(kindOf(later)); // the error's kind: same task
    onResult(later);
  }

  private void success(Result r) {
    switch (r.getPayloadCase()) {
      case PAIR -> pair(experimentOf(r), r.getPair());
      case TRAIN -> train(r.getTrain());
      case ATTACK -> attack(r.getAttack());
      case DATASET -> meters.training("dataset", r.getDataset().getModel(), r.getDataset().getEpochs(),
          r.getDataset().getTrainLoss());
      default -> { }
    }
  }

  private void pair(String experiment, PairResult p) {
    boolean exact = p.getExact();
    meters.pair(experiment, p.getSuiteId(), p.getCategory(), p.getMethod(), p.getDistinguished(),
        p.getReliable(), exact ? Double.NaN : p.getT2Test(), exact ? Double.NaN : p.getT2Reliability());
    if (!exact) {
      meters.training("pair", p.getMethod(), p.getEpochs(), p.getFinalLoss());
      meters.pairMemory(p.getMethod(), p.getPeakRssBytes());
    }
  }

  private void train(TrainResult t) {
    meters.training("train", t.getModel(), t.getEpochs(), t.getFinalLoss());
  }

  private void attack(AttackResult a) {
    for (GraphOutcome g : a.getOutcomesList()) {
      int n = Math.min(g.getBudgetsCount(), g.getAdversarialCount());
      if (n == 0) {
        continue; // not attacked: the model was already wrong on the clean graph
      }
      int[] budgets = new int[n];
      boolean[] hit = new boolean[n];
      for (int i = 0; i < n; i++) {
        budgets[i] = g.getBudgets(i);
        hit[i] = g.getAdversarial(i);
      }
      meters.attack(a.getModel(), a.getPattern(), a.getSpace(), fractions(a, n), budgets, hit);
    }
  }

  /** The result's budget fractions when it has one per budget; empty otherwise (older workers). */
  static double[] fractions(AttackResult a, int budgets) {
    if (a.getBudgetFractionsCount() != budgets) {
      return new double[0];
    }
    return a.getBudgetFractionsList().stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The result's experiment; results of undecodable tasks have none. */
  static String experimentOf(Result r) {
    return r.getExperimentId().isEmpty() ? "(none)" : r.getExperimentId();
  }

  /** The result's task kind: its provenance, else its payload. */
  static String kindOf(Result r) {
    String k = r.getProvenance().getTaskKind();
    if (!k.isEmpty()) {
      return k;
    }
    return switch (r.getPayloadCase()) {
      case PAIR -> "pair";
      case TRAIN -> "train";
      case ATTACK -> "attack";
      case SYNTHETIC -> "synthetic";
      case DATASET -> "dataset";
      case PAYLOAD_NOT_SET -> "unknown";
    };
  }
}
