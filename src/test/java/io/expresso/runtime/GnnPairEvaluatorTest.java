package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph6;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.kafka.Topics;
import io.expresso.stats.ThresholdRule;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.GraphPair;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class GnnPairEvaluatorTest {

  @Test
  void aGinPairTaskTrainsAndReportsTheRpcStatistics() throws Exception {
    GraphPair p = BuiltinSuite.generate().pairs().findFirst().orElseThrow();
    PairTask t = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/gin/" + p.index())).setSuiteId("builtin")
        .setPairIndex(p.index()).setCategory(p.category()).setGraphFirst(Graph6.encode(p.first()))
        .setGraphSecond(Graph6.encode(p.second())).setMethod("gin:layers=2,hidden=16")
        .setTraining(TrainingSettings.newBuilder().setEpochs(2)).setSeed(3).build();
    TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE);
    Outcome o = processor.process(TaskRecords.of(TaskKind.PAIR, 0, 0L, t.getHeader().getTaskId(), t.toByteArray()),
        new DeviceSlot("cpu", 0));
    assertThat(o.failed()).as("%s", o.result().getError().getMessage()).isFalse();
    Result r = Result.parseFrom(o.records().get(0).value());
    assertThat(r.getPair().getMethod()).startsWith("gin:layers=2,hidden=16");
    assertThat(r.getPair().getExact()).isFalse();
    assertThat(r.getPair().getEpochs()).isBetween(1, 2);
    assertThat(r.getPair().getThreshold()).isPositive();
    assertThat(r.getPair().getT2Test()).isFinite().isNotNegative();
    // a 1-WL-equivalent pair: GIN (at most 1-WL) cannot reliably tell it apart
    assertThat(r.getPair().getDistinguished() && r.getPair().getReliable()).isFalse();
  }

  @Test
  void anEmptyThresholdModeIsTheModelsBrecThresholdAndAGivenOneOverridesIt() {
    // threshold_mode "" (publish brec and experiment brec without --threshold): DropGNN's script's 5, RPC otherwise
    PairTask.Builder t = PairTask.newBuilder().setMethod("dropgnn");
    io.expresso.model.NetworkSpec dropGnn = io.expresso.model.ModelSpec.parse("dropgnn");
    io.expresso.model.NetworkSpec gin = io.expresso.model.ModelSpec.parse("gin");
    assertThat(GnnPairEvaluator.settings(t.build(), dropGnn).threshold()).isEqualTo(new ThresholdRule.Given(5, 0.05));
    assertThat(GnnPairEvaluator.settings(t.build(), gin).threshold()).isEqualTo(new ThresholdRule.Rpc(0.05));
    t.setRpc(RpcSettings.newBuilder().setThresholdMode("rpc").setAlpha(0.01));
    assertThat(GnnPairEvaluator.settings(t.build(), dropGnn).threshold()).isEqualTo(new ThresholdRule.Rpc(0.01));
    t.setRpc(RpcSettings.newBuilder().setThresholdMode("12.5"));
    assertThat(GnnPairEvaluator.settings(t.build(), gin).threshold()).isEqualTo(new ThresholdRule.Given(12.5, 0.05));
    t.setRpc(RpcSettings.newBuilder().setThresholdMode("-1"));
    assertThatThrownBy(() -> GnnPairEvaluator.settings(t.build(), gin)).hasMessageContaining("positive number");
  }

  @Test
  void badModelSettingsAreAnInvalidTaskNotACrash() {
    GraphPair p = BuiltinSuite.generate().pairs().findFirst().orElseThrow();
    PairTask t = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/bad")).setGraphFirst(Graph6.encode(p.first()))
        .setGraphSecond(Graph6.encode(p.second())).setMethod("gin:layers=zero").build();
    Outcome o = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE)
        .process(TaskRecords.of(TaskKind.PAIR, 0, 0L, "e/bad", t.toByteArray()), new DeviceSlot("cpu", 0));
    assertThat(o.result().getError().getReason()).isEqualTo(TaskFailure.INVALID_TASK);
    assertThat(o.result().getError().getMessage()).contains("gin:layers=zero");
  }

  /** A GIN task on a 1-WL-equivalent pair (its loss stays near 1): 1000 epochs of 2 batches unless cancelled. */
  private static PairTask longGinTask() {
    GraphPair p = BuiltinSuite.generate().pairs().findFirst().orElseThrow();
    return PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/gin/long")).setSuiteId("builtin")
        .setPairIndex(p.index()).setCategory(p.category()).setGraphFirst(Graph6.encode(p.first()))
        .setGraphSecond(Graph6.encode(p.second())).setMethod("gin:layers=2,hidden=16")
        .setTraining(TrainingSettings.newBuilder().setEpochs(1000)).setSeed(3).build();
  }

  @Test
  void aPreCancelledTaskStopsBeforeItsFirstBatch() {
    Cancellation cancel = new Cancellation();
    cancel.cancel(Cancellation.Reason.TIMEOUT);
    assertThatThrownBy(() -> new GnnPairEvaluator(java.util.Optional::empty, new EvaluatorRegistry()::userModule).evaluate(longGinTask(), new DeviceSlot("cpu", 0), cancel))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("epoch 1 of 1000");
  }

  @Test
  void aTaskCancelledFromAnotherThreadStopsAtTheNextBatch() throws Exception {
    Cancellation cancel = new Cancellation();
    CountDownLatch firstBatchDone = new CountDownLatch(1);
    Thread runtime = new Thread(() -> {
      try {
        firstBatchDone.await();
        cancel.cancel(Cancellation.Reason.STOPPING); // as the worker does when it stops
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "revoking-thread");
    runtime.start();
    AtomicInteger queries = new AtomicInteger();
    // The trainer asks before every batch; at its second question the first batch has run. It waits
    // there for the other thread's cancel, so the stop point does not depend on thread timing.
    BooleanSupplier token = () -> {
      if (queries.incrementAndGet() == 2) {
        firstBatchDone.countDown();
        try {
          runtime.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return cancel.getAsBoolean();
    };
    assertThatThrownBy(() -> new GnnPairEvaluator(java.util.Optional::empty, new EvaluatorRegistry()::userModule).evaluate(longGinTask(), new DeviceSlot("cpu", 0), token))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("epoch 1 of 1000");
    assertThat(queries).as("one batch trained, stopped before the second").hasValue(2);
    assertThat(cancel.reason()).isEqualTo(Cancellation.Reason.STOPPING);
  }
}
