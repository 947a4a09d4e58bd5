package io.expresso.train;

/**
 * What one siamese training run did.
 *
 * @param epochs epochs run (early stop may end before the maximum)
 * @param finalLoss the last epoch's mean loss over the pairs whose steps ran (NaN if no epoch ran, or
 *     every step of the last was skipped)
 * @param skippedSteps steps skipped because their loss was not finite
 * @param finalLearningRate the rate after the plateau schedule
 * @param seconds wall-clock training time
 * @param graphsPerPass graphs per forward/backward pass: the batch size, or less where the memory
 *     budget split batches into micro-batches (0 if no step ran)
 */
public record TrainingOutcome(
    int epochs, double finalLoss, int skippedSteps, float finalLearningRate, double seconds, int graphsPerPass) {}
