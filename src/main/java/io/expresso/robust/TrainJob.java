package io.expresso.robust;

import io.expresso.count.Pattern;
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
 */
public record TrainJob(String modelId, String spec, Pattern pattern, String dataset, Scale scale,
    long seed, String headOf, List<String> testOn) {

  public TrainJob {
    testOn = List.copyOf(testOn);
  }
}
