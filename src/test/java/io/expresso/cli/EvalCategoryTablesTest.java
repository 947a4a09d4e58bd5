package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.report.SeedLeaderboard;
import io.expresso.stats.PairJudgement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code eval}'s own tables keep a pair that ended in an error out of its reliability failures. */
class EvalCategoryTablesTest {

  private static SeedLeaderboard.Judged pair(long seed, int index, PairJudgement j) {
    return new SeedLeaderboard.Judged("brec", "ppgn", seed, index, "Basic", j);
  }

  @Test
  void anErrorIsCountedApartFromTheReliabilityFailures() {
    PairJudgement distinguished = new PairJudgement(1e3, 1.0, 72.34, true, true);
    PairJudgement unreliable = new PairJudgement(1e3, 1e3, 72.34, false, false);
    SeedLeaderboard.Entry board = SeedLeaderboard.ofJudged(List.of(
        pair(0, 0, distinguished), pair(0, 1, unreliable), pair(0, 2, null),
        pair(1, 0, distinguished), pair(1, 1, distinguished), pair(1, 2, null))).get(0);

    String text = EvalCommand.categoryTables(board);

    // per seed: seed 0 judged one pair unreliable and lost one to an error; seed 1 lost one to an error only
    assertThat(text).containsPattern("(?m)^0\\s+1\\s+1\\s+1\\s*$");
    assertThat(text).containsPattern("(?m)^1\\s+2\\s+0\\s+1\\s*$");
    // the best seed (1): 3 pairs, 2 distinguished, no pair judged unreliable, 1 error, 2 reliably distinguished
    assertThat(text).containsPattern("(?m)^Basic\\s+3\\s+2\\s+0\\s+1\\s+2\\s*$");
    assertThat(text).containsPattern("(?m)^total\\s+3\\s+2\\s+0\\s+1\\s+2\\s*$");
  }
}
