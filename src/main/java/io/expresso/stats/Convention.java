package io.expresso.stats;

import java.util.Locale;

/**
 * How T² is scaled. BREC's papers write the textbook Hotelling statistic q·D̄ᵀS⁺D̄, but the
 * official evaluation code ({@code T2_calculation} in GraphPKU/BREC's {@code test_BREC.py})
 * returns D̄ᵀS⁺D̄ without the factor q, and its leaderboard was produced that way. Both are kept so
 * that results say which one they used.
 */
public enum Convention {
  /** The official code: T² = D̄ᵀ S⁺ D̄ (no factor q). Reproduces the published leaderboard. Default. */
  BREC,
  /** The textbook statistic: T² = q · D̄ᵀ S⁺ D̄, distributed as (q−1)d/(q−d)·F_{d,q−d} under H₀. */
  HOTELLING;

  /** The factor applied to D̄ᵀS⁺D̄ for q observations. */
  public double scale(int q) {
    return this == HOTELLING ? q : 1.0;
  }

  /** The CLI / JSON name: {@code brec} or {@code hotelling}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code brec} or {@code hotelling} (case-insensitive).
   *
   * @throws IllegalArgumentException naming the bad value and the accepted ones
   */
  public static Convention parse(String text) {
    if (text != null) {
      for (Convention c : values()) {
        if (c.id().equalsIgnoreCase(text.trim())) {
          return c;
        }
      }
    }
    throw new IllegalArgumentException("unknown T² convention '" + text + "' (expected brec or hotelling)");
  }
}
