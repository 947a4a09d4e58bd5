package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The aggregator's two ways of keeping what counts for each task answer ResultMerge's question alike. */
class KeptResultsTest {

  private static byte[] ok(String id) {
    return Result.newBuilder().setTaskId(id).build().toByteArray();
  }

  private static byte[] error(String id) {
    return Result.newBuilder().setTaskId(id).setError(TaskError.newBuilder().setReason("exception")).build()
        .toByteArray();
  }

  @Test
  void bothStoresTellAnAbsentTaskAnErrorAndASuccessApart() {
    for (KeptResults kept : List.of(new KeptResults.All(), new KeptResults.OutcomesOnly(new TaskIdWindow(64)))) {
      String name = kept.getClass().getSimpleName();
      assertThat(kept.outcome("a")).as(name).isEqualTo(KeptResults.ABSENT);
      kept.keep("a", error("a"), false);
      assertThat(kept.outcome("a")).as(name).isZero();
      kept.keep("a", ok("a"), true); // a retry's success supersedes the error
      assertThat(kept.outcome("a")).as(name).isEqualTo(1);
      kept.keep("b", ok("b"), true);
      assertThat(kept.outcome("b")).as(name).isEqualTo(1);
    }
  }

  @Test
  void onlyTheStoreOfEveryResultHasTheResults() {
    KeptResults.All all = new KeptResults.All();
    all.keep("b", ok("b"), true);
    all.keep("a", error("a"), false);
    all.keep("b", ok("b"), true); // kept again: still first in arrival order
    assertThat(all.results().keySet()).containsExactly("b", "a");
    assertThat(KeptResults.decode(all.results().get("a")).getError().getReason()).isEqualTo("exception");
    assertThatThrownBy(() -> new KeptResults.OutcomesOnly(new TaskIdWindow(64)).results())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("summaries only");
  }
}
