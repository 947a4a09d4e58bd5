package io.expresso.robust;

import io.expresso.train.CountErrors;
import java.util.Map;

/**
 * What a train job produced (the checkpoint itself goes to the model store).
 *
 * @param errors test errors per dataset named in {@link TrainJob#testOn()}
 * @param correctTest test graphs of the training dataset predicted correctly (rounded)
 * @param seconds training time of the attempt that finished the job
 * @param resumedFromEpoch the epoch an earlier attempt's saved state let this one start after (0: none)
 */
public record TrainOutcome(TrainJob job, Map<String, CountErrors> errors, int epochs, double finalLoss,
    int bestEpoch, double bestValidationL1, int correctTest, double seconds, int resumedFromEpoch) {

  public TrainOutcome {
    errors = Map.copyOf(errors);
  }

  /** An outcome trained in one attempt. */
  public TrainOutcome(TrainJob job, Map<String, CountErrors> errors, int epochs, double finalLoss, int bestEpoch,
      double bestValidationL1, int correctTest, double seconds) {
    this(job, errors, epochs, finalLoss, bestEpoch, bestValidationL1, correctTest, seconds, 0);
  }
}
