package io.expresso.model;

/**
 * What a {@link GraphModel} outputs per graph, written in its checkpoints' header. Count
 * regressors are {@link GraphRegressor}s, not a head of this model.
 */
public enum Head {
  /** A d-dimensional embedding (siamese training, RPC; a classifier's d class scores). */
  EMBEDDING
}
