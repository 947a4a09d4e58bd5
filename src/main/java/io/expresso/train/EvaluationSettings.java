package io.expresso.train;

import io.expresso.model.Architecture;
import io.expresso.model.ModelSpec;
import io.expresso.model.NetworkSpec;
import io.expresso.stats.Convention;
import io.expresso.stats.ThresholdRule;

/**
 * Everything that decides one pair besides the model and the seed.
 *
 * @param training siamese-training hyper-parameters
 * @param convention T² scaling ({@code brec} by default, as the official code)
 * @param threshold RPC (fixed quantile), RAPC (adaptive) or a given value, with its significance level α
 */
public record EvaluationSettings(TrainingSettings training, Convention convention, ThresholdRule threshold) {

  /** BREC's default level. */
  public static final double ALPHA = 0.05;

  public EvaluationSettings {
    if (training == null || convention == null || threshold == null) {
      throw new IllegalArgumentException("training settings, convention and threshold rule are required");
    }
  }

  /** BREC's defaults for the architecture: its script's threshold ({@link #threshold(Architecture)}), brec convention. */
  public static EvaluationSettings defaults(Architecture a) {
    return new EvaluationSettings(TrainingSettings.defaults(a), Convention.BREC, threshold(a));
  }

  /** BREC's defaults for the spec (a TorchScript module takes {@link TrainingSettings#defaults(NetworkSpec)}'s and RPC). */
  public static EvaluationSettings defaults(NetworkSpec spec) {
    ThresholdRule t = spec instanceof ModelSpec m ? threshold(m.architecture()) : new ThresholdRule.Rpc(ALPHA);
    return new EvaluationSettings(TrainingSettings.defaults(spec), Convention.BREC, t);
  }

  /**
   * The threshold BREC's script for {@code a} judges with, which a user's {@code --threshold} (or a
   * task's {@code threshold_mode}) overrides: RPC at α = 0.05 (72.34) for every model but DropGNN,
   * whose {@code DropGNN/test_BREC.py} sets {@code THRESHOLD = 5.0}.
   */
  public static ThresholdRule threshold(Architecture a) {
    return a == Architecture.DROP_GNN ? new ThresholdRule.Given(5.0, ALPHA) : new ThresholdRule.Rpc(ALPHA);
  }

  /** The significance level of the threshold. */
  public double alpha() {
    return threshold.alpha();
  }

  /** Within-graph groups drawn for the threshold (0 under RPC; 19 under RAPC at α = 0.05). */
  public int rapcGroups() {
    return threshold.groups();
  }

  public EvaluationSettings withTraining(TrainingSettings t) {
    return new EvaluationSettings(t, convention, threshold);
  }

  public EvaluationSettings withConvention(Convention c) {
    return new EvaluationSettings(training, c, threshold);
  }

  public EvaluationSettings withThreshold(ThresholdRule rule) {
    return new EvaluationSettings(training, convention, rule);
  }

  /** The same kind of threshold at level {@code alpha}. */
  public EvaluationSettings withAlpha(double alpha) {
    return new EvaluationSettings(training, convention, ThresholdRule.of(threshold.id(), alpha));
  }
}
