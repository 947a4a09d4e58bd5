package io.expresso.train;

/** A pair that could not be judged (e.g. non-finite embeddings); the message names the pair. */
public final class PairEvaluationException extends RuntimeException {

  public PairEvaluationException(String message, Throwable cause) {
    super(message, cause);
  }
}
