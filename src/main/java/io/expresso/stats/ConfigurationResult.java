package io.expresso.stats;

import java.util.List;

/**
 * Every seed of one configuration (model spec + hyper-parameters), judged by BREC's rule: the
 * configuration counts only if <em>no</em> seed failed a reliability check, and it is reported by
 * its best seed (the paper reports the best seed, not the mean, to probe the upper bound).
 *
 * @param configuration a label for the configuration (e.g. the model spec and hyper-parameters)
 * @param seeds every seed's run, in the order they were run
 */
public record ConfigurationResult(String configuration, List<SeedRun> seeds) {

  public ConfigurationResult {
    if (seeds == null || seeds.isEmpty()) {
      throw new IllegalArgumentException("configuration '" + configuration + "' has no seed runs");
    }
    seeds = List.copyOf(seeds);
  }

  /** True when every seed passed every reliability check. */
  public boolean counts() {
    return seeds.stream().allMatch(SeedRun::passedReliability);
  }

  /**
   * The best seed: highest {@link SeedRun#realCorrect()}, then most distinguished; the earliest
   * seed wins a tie. For a configuration that {@link #counts()}, that is simply the most
   * distinguished pairs.
   */
  public SeedRun best() {
    SeedRun best = seeds.get(0);
    for (SeedRun run : seeds) {
      if (beats(run.realCorrect(), run.distinguished(), best.realCorrect(), best.distinguished())) {
        best = run;
      }
    }
    return best;
  }

  /**
   * BREC's order of seeds, for callers that hold only counts (the live page): a seed beats the best
   * so far with more real correct pairs (distinguished less reliability failures), or as many and
   * more distinguished. Seeds are taken in order, so the earliest wins a tie.
   */
  public static boolean beats(long realCorrect, long distinguished, long bestRealCorrect, long bestDistinguished) {
    return realCorrect > bestRealCorrect || (realCorrect == bestRealCorrect && distinguished > bestDistinguished);
  }

  /** The seeds that failed at least one reliability check (empty when the configuration counts). */
  public List<Long> failingSeeds() {
    return seeds.stream().filter(r -> !r.passedReliability()).map(SeedRun::seed).toList();
  }
}
