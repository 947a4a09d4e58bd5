package io.expresso.runtime.kafka;

import io.expresso.proto.v1.Result;

/**
 * Hook on the {@link Aggregator}'s result stream (metrics, live page, report files). Called on the
 * aggregator's thread, in arrival order; keep it quick.
 */
public interface ResultListener {

  /** A result seen for the first time (by task id) in the aggregated experiment(s). */
  void onResult(Result result);

  /**
   * A result whose task id was already seen and whose kept result succeeded (the task ran twice,
   * or was redelivered); it is not counted, only counted as a duplicate record.
   */
  default void onDuplicate(Result result) {}

  /**
   * {@code later} replaced its task's error result ({@link ResultMerge}): it is a success or a
   * newer error, and a duplicate record too. The error it replaced was given to {@link #onResult}
   * (or an earlier call here) and had the same task, so the same experiment and task kind: a
   * listener that counts errors takes it back here, or its tally keeps failures that a retry
   * fixed. The error itself is not passed: long-lived aggregators keep no results.
   */
  default void onSuperseded(Result later) {}
}
