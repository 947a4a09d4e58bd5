package io.expresso.stats;

import java.util.List;
import java.util.Optional;

/**
 * BREC's multi-seed search (the paper runs 10 seeds per configuration): a configuration counts
 * only if no seed failed reliability; among those, the one whose best seed distinguishes the most
 * pairs wins.
 */
public final class SeedSearch {

  private SeedSearch() {}

  /** Groups one configuration's seed runs. */
  public static ConfigurationResult aggregate(String configuration, List<SeedRun> runs) {
    return new ConfigurationResult(configuration, runs);
  }

  /**
   * The winning configuration: among those that {@link ConfigurationResult#counts() count}, the one
   * whose {@link ConfigurationResult#best() best seed} distinguishes the most pairs (the earliest
   * wins a tie); empty when none counts.
   */
  public static Optional<ConfigurationResult> best(List<ConfigurationResult> configurations) {
    ConfigurationResult best = null;
    for (ConfigurationResult c : configurations) {
      if (c.counts() && (best == null || c.best().distinguished() > best.best().distinguished())) {
        best = c;
      }
    }
    return Optional.ofNullable(best);
  }
}
