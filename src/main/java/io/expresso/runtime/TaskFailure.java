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
