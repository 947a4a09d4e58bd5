package io.expresso.runtime.kafka;

import io.expresso.proto.v1.Result;

/**
 * Hook on the {@link Aggregator}'s result stream (metrics, live page, report files). Called on the
 * aggregator's thread, in arrival order; keep it quick.
 */
public interface ResultListener {

  /** A result seen for the first time (by task id) in the aggregated experiment(s). */
  void onResult(Result result);

  /** A result whose task id was already seen (a redelivery); it is not counted. */
  default void onDuplicate(Result result) {}

  /**
   * {@code later} replaced {@code earlier} as the result of their task ({@link ResultMerge}):
   * {@code earlier} is an error, {@code later} a success or a newer error. A listener that counts
   * errors takes {@code earlier}'s back here, or its tally keeps failures that a retry fixed.
   */
  default void onSuperseded(Result earlier, Result later) {}
}
