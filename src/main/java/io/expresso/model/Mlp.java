package io.expresso.model;

import ai.djl.nn.Activation;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;

/** The two-layer MLPs the networks are made of. */
final class Mlp {

  private Mlp() {}

  /** Linear → BatchNorm → ReLU, twice (GIN's update; BN over real nodes only, never padding). */
  static SequentialBlock withBatchNorm(int hidden, float bnMomentum) {
    return new SequentialBlock()
        .add(Linear.builder().setUnits(hidden).build())
        .add(BatchNorm.builder().optMomentum(bnMomentum).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(hidden).build())
        .add(BatchNorm.builder().optMomentum(bnMomentum).build())
        .add(Activation.reluBlock());
  }

  /**
   * ESAN's {@code OriginalGINConv} and the batch norm after it: Linear → BatchNorm → ReLU → Linear →
   * BatchNorm, the activation left to the caller (DSS-GNN adds two of them before its ReLU).
   */
  static SequentialBlock ginThenNorm(int hidden, float bnMomentum) {
    return new SequentialBlock()
        .add(Linear.builder().setUnits(hidden).build())
        .add(BatchNorm.builder().optMomentum(bnMomentum).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(hidden).build())
        .add(BatchNorm.builder().optMomentum(bnMomentum).build());
  }

  /** Linear → BatchNorm → ReLU → Linear: GSN's {@code mlp} with one hidden layer, its output left linear. */
  static SequentialBlock linearNormLinear(int hidden, float bnMomentum) {
    return new SequentialBlock()
        .add(Linear.builder().setUnits(hidden).build())
        .add(BatchNorm.builder().optMomentum(bnMomentum).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(hidden).build());
  }

  /** Linear → ReLU → Linear → ReLU on the last axis (PPGN's 1×1 convolutions). */
  static SequentialBlock plain(int hidden) {
    return new SequentialBlock()
        .add(Linear.builder().setUnits(hidden).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(hidden).build())
        .add(Activation.reluBlock());
  }
}
