package io.expresso.train;

import java.util.Locale;

/** How the T² threshold is set: BREC's fixed RPC quantile or RAPC's adaptive maximum. */
public enum ThresholdMode {
  RPC, RAPC;

  /** {@code rpc} or {@code rapc}. */
  public static ThresholdMode parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new IllegalArgumentException("unknown threshold '" + s + "' (expected rpc or rapc)");
    }
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
