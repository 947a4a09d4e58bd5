package io.expresso.robust;

import io.expresso.train.CountErrors;
import java.util.Map;

/**
 * What a train job produced (the checkpoint itself goes to the model store).
 *
 * @param errors test errors per dataset named in {@link TrainJob#testOn()}
 * @param correctTest test graphs of the training dataset predicted correctly (rounded)
 */
public record TrainOutcome(TrainJob job, Map<String, CountErrors> errors, int epochs, double finalLoss,
    int bestEpoch, double bestValidationL1, int correctTest, double seconds) {

  public TrainOutcome {
    errors = Map.copyOf(errors);
  }
}
