package io.expresso.graph;

/**
 * Malformed graph input. The message names where (file, line or graph index) and what is wrong,
 * for example {@code "pairs.g6 line 3: graph6 string is 5 bytes, expected 7 for 6 vertices"}.
 */
public final class GraphFormatException extends RuntimeException {

  public GraphFormatException(String message) {
    super(message);
  }

  public GraphFormatException(String message, Throwable cause) {
    super(message, cause);
  }

  /** This error with a location prefixed, e.g. {@code at("data.g6 line 7")}. */
  public GraphFormatException at(String where) {
    return new GraphFormatException(where + ": " + getMessage(), this);
  }
}
