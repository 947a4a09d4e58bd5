package io.expresso.runtime;

import io.expresso.proto.v1.TaskHeader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph6;
import io.expresso.proto.v1.PairTask;
import io.expresso.suite.Constructions;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

class BaselinePairEvaluatorTest {

  private static PairTask task() {
    return PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/3-wl/0")).setSuiteId("builtin")
        .setGraphFirst(Graph6.encode(Constructions.decalin())).setGraphSecond(Graph6.encode(Constructions.bicyclopentyl()))
        .setMethod("3-wl").build();
  }

  @Test
  void aCancelledTaskStopsRefining() {
    Cancellation cancel = new Cancellation();
    cancel.cancel(Cancellation.Reason.TIMEOUT);
    assertThatThrownBy(() -> new BaselinePairEvaluator().evaluate(task(), new DeviceSlot("cpu", 0), cancel))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("colour refinement");
  }

  @Test
  void anUncancelledTaskIsExact() {
    assertThat(new BaselinePairEvaluator().evaluate(task(), new DeviceSlot("cpu", 0), new Cancellation()).getPair())
        .satisfies(p -> {
          assertThat(p.getDistinguished()).isTrue(); // 3-WL tells decalin from bicyclopentyl
          assertThat(p.getExact()).isTrue();
        });
  }
}
