package io.expresso.runtime;

/**
 * A task that cannot be processed: it becomes an error {@code Result} and a dead-letter record
 * carrying {@link #reason()}; the worker keeps serving.
 */
public final class TaskFailure extends RuntimeException {

  public static final String UNDECODABLE = "undecodable";
  public static final String INVALID_GRAPH6 = "invalid-graph6";
  public static final String UNKNOWN_MODEL = "unknown-model";
  public static final String INVALID_TASK = "invalid-task";
  public static final String EXCEPTION = "exception";
  public static final String NAN = "nan";
  /** The task ran past its kind's time limit on the device. */
  public static final String TIMEOUT = "timeout";
  /** The task took down or was lost with workers too many times; the dead letter's reason reads {@code poison: N attempts}. */
  public static final String POISON = "poison";
  public static final String OUT_OF_MEMORY = "out-of-memory";
  /** The task asks for more work than a limit of the worker allows (see {@link TaskLimits}). */
  public static final String OVER_LIMIT = "over-limit";
  /** The result would exceed the broker's record limit. */
  public static final String RESULT_TOO_LARGE = "result-too-large";

  /** Every reason above: a closed set, so dashboards can show each at zero from start-up. */
  public static final java.util.List<String> REASONS = java.util.List.of(UNDECODABLE, INVALID_GRAPH6,
      UNKNOWN_MODEL, INVALID_TASK, EXCEPTION, NAN, TIMEOUT, POISON, OUT_OF_MEMORY, OVER_LIMIT, RESULT_TOO_LARGE);

  private final String reason;

  public TaskFailure(String reason, String message) {
    super(message);
    this.reason = reason;
  }

  public TaskFailure(String reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** A short machine-readable reason, one of the constants of this class. */
  public String reason() {
    return reason;
  }
}
