package io.expresso.stats;

import java.util.List;

/**
 * The judgements of one configuration under one seed, over a whole suite (or part of it).
 *
 * @param seed the seed that fixed initialisation, relabelings and batch order
 * @param pairs one judgement per evaluated pair
 */
public record SeedRun(long seed, List<PairJudgement> pairs) {

  public SeedRun {
    if (pairs == null) {
      throw new IllegalArgumentException("seed " + seed + ": judgements are missing (null)");
    }
    pairs = List.copyOf(pairs);
  }

  /** Pairs judged distinguished (BREC's {@code cnt}). */
  public int distinguished() {
    return (int) pairs.stream().filter(PairJudgement::distinguished).count();
  }

  /** Pairs whose reliability check failed (BREC's {@code fail_in_reliability}). */
  public int reliabilityFailures() {
    return (int) pairs.stream().filter(p -> !p.reliable()).count();
  }

  /** Pairs both distinguished and reliable. */
  public int reliablyDistinguished() {
    return (int) pairs.stream().filter(PairJudgement::reliablyDistinguished).count();
  }

  /** The official score {@code Real_correct = cnt − fail_in_reliability} (can be below the pair-level count). */
  public int realCorrect() {
    return distinguished() - reliabilityFailures();
  }

  /** True when no pair failed its reliability check. */
  public boolean passedReliability() {
    return reliabilityFailures() == 0;
  }
}
