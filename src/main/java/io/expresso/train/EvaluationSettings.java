package io.expresso.train;

import io.expresso.model.Architecture;
import io.expresso.stats.Convention;
import io.expresso.stats.Threshold;

/**
 * Everything that decides one pair besides the model and the seed.
 *
 * @param training siamese-training hyper-parameters
 * @param convention T² scaling ({@code brec} by default, as the official code)
 * @param threshold RPC (fixed quantile) or RAPC (adaptive)
 * @param alpha significance level of the RPC threshold (0.05)
 * @param rapcGroups m within-graph groups for RAPC; the false-positive bound is 1/(m+1)
 */
public record EvaluationSettings(
    TrainingSettings training, Convention convention, ThresholdMode threshold, double alpha, int rapcGroups) {

  public EvaluationSettings {
    if (training == null || convention == null || threshold == null) {
      throw new IllegalArgumentException("training settings, convention and threshold mode are required");
    }
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must lie in (0, 1), got " + alpha);
    }
    if (rapcGroups < 1) {
      throw new IllegalArgumentException("RAPC needs at least one group, got " + rapcGroups);
    }
  }

  /** BREC's defaults for the architecture: RPC, brec convention, α = 0.05; RAPC with 19 groups. */
  public static EvaluationSettings defaults(Architecture a) {
    return new EvaluationSettings(TrainingSettings.defaults(a), Convention.BREC, ThresholdMode.RPC, 0.05,
        Threshold.rapcGroupsFor(0.05));
  }

  public EvaluationSettings withTraining(TrainingSettings t) {
    return new EvaluationSettings(t, convention, threshold, alpha, rapcGroups);
  }

  public EvaluationSettings withConvention(Convention c) {
    return new EvaluationSettings(training, c, threshold, alpha, rapcGroups);
  }

  public EvaluationSettings withThreshold(ThresholdMode m) {
    return new EvaluationSettings(training, convention, m, alpha, rapcGroups);
  }
}
