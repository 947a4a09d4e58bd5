package io.expresso.attack;

import io.expresso.count.DeltaFlipCounter;
import io.expresso.count.MutableGraph;
import io.expresso.count.Pattern;

/**
 * Which single flips an attack step may take (Campi et al. §4.2). Budgets are enforced by the
 * search: at most Δ flips, never the same pair twice.
 */
public enum PerturbationSpace {
  /** P_Δ: any flip. */
  ANY("any"),
  /** P^c_Δ: every step keeps the count, so C(G̃) = C(G). */
  COUNT_PRESERVING("count"),
  /**
   * P^s_Δ: every step keeps the set of vertex subsets inducing the pattern. A flip of {i, j}
   * changes the induced graph of exactly the subsets containing i and j, and changes its edge
   * count, so it keeps the set iff no subset through i and j induces the pattern before or after.
   */
  SUBGRAPH_PRESERVING("subgraph");

  private final String cliName;

  PerturbationSpace(String cliName) {
    this.cliName = cliName;
  }

  public String cliName() {
    return cliName;
  }

  /**
   * Whether a flip is in this space, given the copies through its endpoints that it destroys and
   * creates (only their difference matters for the count).
   */
  public boolean admits(long destroyed, long created) {
    return switch (this) {
      case ANY -> true;
      case COUNT_PRESERVING -> destroyed == created;
      case SUBGRAPH_PRESERVING -> destroyed == 0 && created == 0;
    };
  }

  /** Whether flipping {i, j} in {@code g} is in this space for pattern {@code p}. */
  public boolean admitsFlip(DeltaFlipCounter through, MutableGraph g, Pattern p, int i, int j) {
    if (this == ANY) {
      return true;
    }
    long[] copies = new long[2];
    through.copiesThrough(g, p, i, j, copies);
    boolean present = g.adjacent(i, j);
    return admits(present ? copies[0] : copies[1], present ? copies[1] : copies[0]);
  }

  public static PerturbationSpace fromName(String name) {
    for (PerturbationSpace s : values()) {
      if (s.cliName.equalsIgnoreCase(name == null ? "" : name.trim())) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown perturbation space '" + name + "'; valid: any, count, subgraph");
  }
}
