package io.expresso.train;

/** Something the trainer tells after every epoch; it may ask training to stop. */
public interface EpochListener {

  /**
   * @param epoch 1-based epoch just finished
   * @param meanLoss the epoch's mean loss over the pairs whose steps ran; NaN if every step was skipped
   * @return true to stop training now
   */
  boolean afterEpoch(int epoch, double meanLoss);
}
