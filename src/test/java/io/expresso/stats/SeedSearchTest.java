package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeedSearchTest {

  private static final double T = 72.34;

  /** A run with the given numbers of distinguished-and-reliable, distinguished-unreliable, undistinguished-unreliable and plain pairs. */
  private static SeedRun run(long seed, int good, int distinguishedUnreliable, int unreliableOnly, int plain) {
    List<PairJudgement> p = new ArrayList<>();
    for (int i = 0; i < good; i++) {
      p.add(PairedComparison.decide(100, 1, T));
    }
    for (int i = 0; i < distinguishedUnreliable; i++) {
      p.add(PairedComparison.decide(1000, 80, T));
    }
    for (int i = 0; i < unreliableOnly; i++) {
      p.add(PairedComparison.decide(5, 80, T));
    }
    for (int i = 0; i < plain; i++) {
      p.add(PairedComparison.decide(5, 1, T));
    }
    return new SeedRun(seed, p);
  }

  @Test
  void seedRunCountsLikeTheOfficialScript() {
    SeedRun r = run(1, 5, 2, 3, 10);
    assertThat(r.pairs()).hasSize(20);
    assertThat(r.distinguished()).isEqualTo(7);
    assertThat(r.reliabilityFailures()).isEqualTo(5);
    assertThat(r.reliablyDistinguished()).isEqualTo(5);
    assertThat(r.realCorrect()).isEqualTo(2); // cnt − fail_in_reliability, as BREC prints it
    assertThat(r.passedReliability()).isFalse();
  }

  @Test
  void configurationCountsOnlyIfNoSeedFailedReliability() {
    ConfigurationResult clean = SeedSearch.aggregate("gin-4x32", List.of(run(0, 3, 0, 0, 7), run(1, 6, 0, 0, 4), run(2, 6, 0, 0, 4)));
    assertThat(clean.counts()).isTrue();
    assertThat(clean.best().seed()).isEqualTo(1); // earliest of the tied best
    assertThat(clean.failingSeeds()).isEmpty();

    ConfigurationResult oneBadSeed = SeedSearch.aggregate("ppgn-5x64", List.of(run(0, 9, 0, 0, 1), run(1, 8, 0, 1, 1)));
    assertThat(oneBadSeed.counts()).isFalse();
    assertThat(oneBadSeed.failingSeeds()).containsExactly(1L);
    assertThat(oneBadSeed.seeds()).hasSize(2); // every seed is still reported

    // The best configuration ignores the one with a failing seed even though it scores higher.
    assertThat(SeedSearch.best(List.of(oneBadSeed, clean))).contains(clean);
    assertThat(SeedSearch.best(List.of(oneBadSeed))).isEmpty();
  }

  @Test
  void bestSeedPrefersRealCorrect() {
    ConfigurationResult c = SeedSearch.aggregate("x", List.of(run(0, 2, 3, 0, 5), run(1, 4, 0, 0, 6)));
    assertThat(c.best().seed()).isEqualTo(1); // 4 real correct beats 5 distinguished with 3 failures
  }

  @Test
  void rejectsEmptyConfigurations() {
    assertThatThrownBy(() -> SeedSearch.aggregate("empty", List.of())).hasMessageContaining("'empty' has no seed runs");
  }
}
