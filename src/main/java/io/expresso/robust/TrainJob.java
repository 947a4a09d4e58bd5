package io.expresso.robust;

import io.expresso.count.Pattern;
import io.expresso.train.CountRecipe;
import java.util.List;

/**
 * Train one count regressor (or retrain only the head of an existing one) and test it.
 *
 * @param modelId key of the checkpoint in the model store ({@code expresso.models})
 * @param spec model spec text, e.g. {@code i2gnn:hidden=32,layers=3,hops=2}
 * @param dataset dataset trained on
 * @param headOf null to train from scratch; otherwise the id of a trained model whose final MLP
 *     alone is retrained on {@code dataset} (its other parameters frozen)
 * @param testOn datasets whose test split the trained model is scored on
 * @param graphs graphs per dataset, 0 for the scale's ({@code --graphs})
 * @param maxEpochs the most epochs, 0 for the scale's cap ({@code --max-epochs})
 * @param learningRate initial Adam rate, 0 for the recipe's (a {@code --search} grid point)
 * @param batchSize graphs per step, 0 for the recipe's (a {@code --search} grid point)
 */
public record TrainJob(String modelId, String spec, Pattern pattern, String dataset, Scale scale,
    long seed, String headOf, List<String> testOn, int graphs, int maxEpochs, float learningRate, int batchSize) {

  public TrainJob {
    testOn = List.copyOf(testOn);
    if (graphs < 0 || maxEpochs < 0 || batchSize < 0 || !(learningRate >= 0)) {
      throw new IllegalArgumentException("graphs, max epochs, learning rate and batch size must be positive"
          + " (0 = the scale's or recipe's), got " + graphs + ", " + maxEpochs + ", " + learningRate + ", " + batchSize);
    }
  }

  /** A job with its recipe's learning rate and batch size. */
  public TrainJob(String modelId, String spec, Pattern pattern, String dataset, Scale scale, long seed,
      String headOf, List<String> testOn, int graphs, int maxEpochs) {
    this(modelId, spec, pattern, dataset, scale, seed, headOf, testOn, graphs, maxEpochs, 0f, 0);
  }

  /** A job at its scale's data size and epoch cap. */
  public TrainJob(String modelId, String spec, Pattern pattern, String dataset, Scale scale, long seed,
      String headOf, List<String> testOn) {
    this(modelId, spec, pattern, dataset, scale, seed, headOf, testOn, 0, 0);
  }

  /** Graphs per dataset this job trains and tests on. */
  public int datasetSize() {
    return graphs > 0 ? graphs : scale.datasetSize();
  }

  /** The recipe that trains this job's architecture for its pattern, within the scale's (or the job's) caps. */
  public CountRecipe recipe(String architecture) {
    CountRecipe r = scale.recipe(architecture, pattern, maxEpochs > 0 ? maxEpochs : scale.epochs());
    return new CountRecipe(r.spec(), batchSize > 0 ? batchSize : r.batchSize(),
        learningRate > 0 ? learningRate : r.learningRate(), r.maxEpochs(), r.plateauPatience(), r.stopPatience());
  }
}
