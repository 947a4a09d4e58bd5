package io.expresso.model;

/** What a model outputs per graph. */
public enum Head {
  /** A d-dimensional embedding (siamese training, RPC). */
  EMBEDDING,
  /** One number (count regression); the embedding network plus a linear layer. */
  SCALAR
}
