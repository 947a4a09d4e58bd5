package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.proto.v1.PairTask;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.Suite;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The leaderboard's publishing order ({@link TaskMessages#forEachInterleavedPairTask}): models take
 * turns from the first task on, chunk by chunk of pairs, never one model after another.
 */
class InterleavedPairTasksTest {

  private static final Suite SUITE = BuiltinSuite.generate().restrict(0, 5);
  private static final List<String> MODELS = List.of("ppgn", "gsn", "3-wl");

  private static List<PairTask> tasks(int chunk, long... seeds) {
    List<PairTask> out = new ArrayList<>();
    TaskMessages.forEachInterleavedPairTask("lb", SUITE, MODELS, seeds, chunk, null, null, out::add);
    return out;
  }

  private static String key(PairTask t) {
    return t.getMethod() + "/" + t.getPairIndex() + "/s" + t.getSeed();
  }

  @Test
  void everyModelPairAndSeedOnceWithTheIdsOfPublishBrec() {
    List<PairTask> all = tasks(2, 0, 1);
    assertThat(all).hasSize(MODELS.size() * SUITE.size() * 2);
    assertThat(new HashSet<>(all.stream().map(InterleavedPairTasksTest::key).toList())).hasSize(all.size());
    for (PairTask t : all) {
      assertThat(t.getHeader().getTaskId()).isEqualTo("lb/" + key(t));
      assertThat(t.getHeader().getExperimentId()).isEqualTo("lb");
    }
    // one model alone is publish brec's order and ids: pair by pair, every seed of the pair
    List<PairTask> one = new ArrayList<>();
    TaskMessages.forEachPairTask("lb", SUITE, "gsn", new long[] {0, 1}, null, null, one::add);
    assertThat(one.stream().map(t -> t.getHeader().getTaskId()).toList()).isEqualTo(
        all.stream().filter(t -> t.getMethod().equals("gsn")).map(t -> t.getHeader().getTaskId()).sorted(
            java.util.Comparator.comparing((String id) -> Integer.parseInt(id.split("/")[2]))
                .thenComparing(id -> id)).toList());
  }

  @Test
  void chunksOfPairsTakeTurnsAcrossSeedsAndModels() {
    List<String> order = tasks(2, 0, 1).stream().map(InterleavedPairTasksTest::key).toList();
    int first = SUITE.pairs().findFirst().orElseThrow().index();
    int second = first + 1;
    assertThat(order.subList(0, 12)).containsExactly(
        "ppgn/" + first + "/s0", "ppgn/" + second + "/s0", "gsn/" + first + "/s0", "gsn/" + second + "/s0",
        "3-wl/" + first + "/s0", "3-wl/" + second + "/s0",
        "ppgn/" + first + "/s1", "ppgn/" + second + "/s1", "gsn/" + first + "/s1", "gsn/" + second + "/s1",
        "3-wl/" + first + "/s1", "3-wl/" + second + "/s1");
    // every model has a task among the first (models x chunk) ones, under every chunk size
    for (int chunk : new int[] {1, 2, 3, 6}) {
      List<PairTask> t = tasks(chunk, 0, 1, 2);
      assertThat(t.subList(0, MODELS.size() * chunk).stream().map(PairTask::getMethod).distinct())
          .as("chunk %d", chunk).containsExactlyElementsOf(MODELS);
    }
  }

  @Test
  void aChunkBelowOnePairIsRefused() {
    assertThatThrownBy(() -> tasks(0, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
