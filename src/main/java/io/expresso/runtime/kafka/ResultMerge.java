package io.expresso.runtime.kafka;

import io.expresso.proto.v1.Result;

/**
 * Which of a task's results counts, when the task was run more than once (a redelivery, or a
 * failed task published again): the first successful result if there is one, otherwise the
 * latest error. So a retry that succeeds supersedes the error in every report, table, metric and
 * page, and nothing replaces a success (a result is a measurement; re-running a task that
 * succeeded must not change the report). The {@link Aggregator} applies it, in arrival order per
 * task id (one task id is one partition, so that order is the order the results were written).
 * The rule needs only whether the kept result succeeded, so a reader that keeps one bit per task
 * ({@link TaskIdWindow}) applies it exactly as one that keeps every result.
 */
public final class ResultMerge {

  private ResultMerge() {}

  /** A result without an error. */
  public static boolean succeeded(Result r) {
    return !r.hasError();
  }

  /**
   * Whether {@code later}, arriving after {@code kept} for the same task id, replaces it: true
   * when {@code kept} is an error (a success supersedes it, and so does a later error, which says
   * how the latest attempt failed); false when {@code kept} succeeded.
   */
  public static boolean supersedes(Result kept, Result later) {
    return supersedes(succeeded(kept));
  }

  /** {@link #supersedes(Result, Result)} knowing only whether the kept result succeeded. */
  public static boolean supersedes(boolean keptSucceeded) {
    return !keptSucceeded;
  }
}
