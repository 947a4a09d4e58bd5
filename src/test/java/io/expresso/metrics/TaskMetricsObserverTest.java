package io.expresso.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import org.junit.jupiter.api.Test;

class TaskMetricsObserverTest {

  @Test
  void anErrorResultIsModelUnknownEvenWhenItNamesItsPair() {
    PairResult pair = PairResult.newBuilder().setMethod("3-wl").build();
    assertThat(TaskMetricsObserver.modelOf(Result.newBuilder().setPair(pair).build())).isEqualTo("3-wl");
    // a failed pair task keeps its pair, with whatever method the task wrote (unknown-model)
    Result failed = Result.newBuilder().setPair(pair.toBuilder().setMethod("no-such-gnn-" + "x".repeat(40)))
        .setError(TaskError.newBuilder().setReason("unknown-model")).build();
    assertThat(TaskMetricsObserver.modelOf(failed)).isEqualTo("unknown");
  }
}
