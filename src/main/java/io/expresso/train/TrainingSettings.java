package io.expresso.train;

import io.expresso.model.Architecture;
import io.expresso.model.ModelSpec;
import io.expresso.model.NetworkSpec;

/**
 * Siamese-training hyper-parameters (BREC's published settings by default, every one overridable).
 *
 * @param q relabelings per graph (32)
 * @param epochs maximum epochs over the 2q major graphs (20)
 * @param batchSize graphs per step, even so that G/H relabelings stay paired (32)
 * @param learningRate Adam's initial learning rate (1e-4)
 * @param weightDecay Adam's L2 weight decay (1e-4)
 * @param lossThreshold stop once an epoch's mean loss falls below this (PPGN 0.2)
 * @param plateauFactor ReduceLROnPlateau: multiply the rate by this when the loss stalls
 * @param plateauPatience ReduceLROnPlateau: epochs without improvement tolerated
 * @param minLearningRate ReduceLROnPlateau: floor of the rate
 */
public record TrainingSettings(
    int q, int epochs, int batchSize, float learningRate, float weightDecay, double lossThreshold,
    float plateauFactor, int plateauPatience, float minLearningRate) {

  public TrainingSettings {
    if (q < 2) {
      throw new IllegalArgumentException("q must be at least 2 relabelings, got " + q);
    }
    if (epochs < 0) {
      throw new IllegalArgumentException("epochs must be >= 0, got " + epochs);
    }
    if (batchSize < 2 || batchSize % 2 != 0) {
      throw new IllegalArgumentException("batch size must be even and >= 2 (G/H relabelings are paired), got " + batchSize);
    }
    if (!(learningRate > 0) || !(weightDecay >= 0) || !(minLearningRate >= 0)) {
      throw new IllegalArgumentException("learning rate must be > 0 and weight decay, min rate >= 0");
    }
    if (!(plateauFactor > 0 && plateauFactor < 1) || plateauPatience < 0) {
      throw new IllegalArgumentException("plateau factor must lie in (0, 1) and patience >= 0");
    }
  }

  /** BREC's settings for the architecture (appendix O; GIN follows PPGN's). */
  public static TrainingSettings defaults(Architecture a) {
    return switch (a) {
      case PPGN, GIN -> new TrainingSettings(32, 20, 32, 1e-4f, 1e-4f, 0.2, 0.5f, 5, 1e-6f);
      case NGNN_DE -> new TrainingSettings(32, 30, 32, 1e-4f, 1e-4f, 0.01, 0.5f, 5, 1e-6f);
      // BREC's GSN/test_BREC.py, SUN/test_BREC_ds.py and test_BREC_search_dss.py
      case GSN -> new TrainingSettings(32, 20, 16, 1e-4f, 1e-5f, 0.1, 0.5f, 5, 1e-6f);
      case DS_GNN -> new TrainingSettings(32, 30, 32, 1e-4f, 1e-5f, 0.0, 0.5f, 5, 1e-6f);
      case DSS_GNN -> new TrainingSettings(32, 20, 32, 1e-4f, 1e-4f, 0.01, 0.5f, 5, 1e-6f);
      case I2GNN -> new TrainingSettings(32, 20, 16, 1e-5f, 1e-4f, 0.2, 0.5f, 5, 1e-6f); // I2GNN/test_BREC_search.py
      case KP_GNN -> new TrainingSettings(32, 20, 32, 1e-4f, 1e-4f, 0.3, 0.5f, 5, 1e-6f); // KP-GNN/test_BREC_search.py
    };
  }

  /**
   * The defaults for a spec: its architecture's, and for a TorchScript module BREC's general ones
   * (those of PPGN and GIN: 20 epochs, stop below loss 0.2).
   */
  public static TrainingSettings defaults(NetworkSpec spec) {
    return spec instanceof ModelSpec m ? defaults(m.architecture()) : defaults(Architecture.GIN);
  }

  public TrainingSettings withQ(int v) {
    return new TrainingSettings(v, epochs, batchSize, learningRate, weightDecay, lossThreshold, plateauFactor, plateauPatience, minLearningRate);
  }

  public TrainingSettings withEpochs(int v) {
    return new TrainingSettings(q, v, batchSize, learningRate, weightDecay, lossThreshold, plateauFactor, plateauPatience, minLearningRate);
  }

  public TrainingSettings withBatchSize(int v) {
    return new TrainingSettings(q, epochs, v, learningRate, weightDecay, lossThreshold, plateauFactor, plateauPatience, minLearningRate);
  }

  public TrainingSettings withLearningRate(float v) {
    return new TrainingSettings(q, epochs, batchSize, v, weightDecay, lossThreshold, plateauFactor, plateauPatience, minLearningRate);
  }

  public TrainingSettings withWeightDecay(float v) {
    return new TrainingSettings(q, epochs, batchSize, learningRate, v, lossThreshold, plateauFactor, plateauPatience, minLearningRate);
  }

  public TrainingSettings withLossThreshold(double v) {
    return new TrainingSettings(q, epochs, batchSize, learningRate, weightDecay, v, plateauFactor, plateauPatience, minLearningRate);
  }
}
