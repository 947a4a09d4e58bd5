package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph6;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BuiltinSuite;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Several evaluations training at once in one process (a GPU's slots, here CPU devices sharing the
 * one CPU, the same code path) give exactly what one device judging them one by one gives.
 */
class ConcurrentSlotsTest {

  /** The first pair of each built-in category (judged differently by PPGN). */
  private static List<PairTask> tasks() {
    List<PairTask> out = new ArrayList<>();
    for (var p : BuiltinSuite.generate().categories().stream().map(c -> c.pairs().get(0)).toList()) {
      out.add(PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("slots").setTaskId("slots/" + p.index()))
          .setSuiteId("builtin").setPairIndex(p.index()).setCategory(p.category())
          .setGraphFirst(Graph6.encode(p.first())).setGraphSecond(Graph6.encode(p.second()))
          .setMethod("ppgn:layers=2,hidden=8").setTraining(TrainingSettings.newBuilder().setEpochs(2)).setSeed(5).build());
    }
    return out;
  }

  private static PairResult judge(TaskProcessor processor, PairTask t, DeviceSlot device) throws Exception {
    Outcome o = processor.process(TaskRecords.of(TaskKind.PAIR, 0, 0L, t.getHeader().getTaskId(), t.toByteArray()),
        device);
    assertThat(o.failed()).as("%s", o.result().getError().getMessage()).isFalse();
    return Result.parseFrom(o.records().get(0).value()).getPair();
  }

  @Test
  void slotsTrainingAtOnceGiveTheVerdictsAndStatisticsOfOneSlot() throws Exception {
    List<PairTask> tasks = tasks();
    assertThat(tasks).hasSizeGreaterThanOrEqualTo(4);
    TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "slots", TaskObserver.NONE);
    List<PairResult> one = new ArrayList<>();
    for (PairTask t : tasks) {
      one.add(judge(processor, t, new DeviceSlot("cpu", 0)));
    }

    List<DeviceSlot> slots = DeviceSlot.parse("cpu:" + tasks.size());
    ExecutorService pool = Executors.newFixedThreadPool(slots.size());
    CountDownLatch go = new CountDownLatch(1);
    List<Future<PairResult>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < tasks.size(); i++) {
        PairTask t = tasks.get(i);
        DeviceSlot d = slots.get(i);
        futures.add(pool.submit(() -> {
          go.await();
          return judge(processor, t, d);
        }));
      }
      go.countDown();
      for (int i = 0; i < tasks.size(); i++) {
        PairResult together = futures.get(i).get();
        PairResult alone = one.get(i);
        assertThat(together.getT2Test()).as("pair %d T²", alone.getPairIndex()).isEqualTo(alone.getT2Test());
        assertThat(together.getT2Reliability()).isEqualTo(alone.getT2Reliability());
        assertThat(together.getFinalLoss()).isEqualTo(alone.getFinalLoss());
        assertThat(together.getEpochs()).isEqualTo(alone.getEpochs());
        assertThat(together.getDistinguished()).isEqualTo(alone.getDistinguished());
        assertThat(together.getReliable()).isEqualTo(alone.getReliable());
        // each took from the CPU devices' pool what its passes need, alone or beside the others
        assertThat(together.getTrainingGraphsPerPass()).isEqualTo(alone.getTrainingGraphsPerPass());
        assertThat(together.getMemoryBudgetBytes()).isEqualTo(alone.getMemoryBudgetBytes())
            .isLessThan(io.expresso.engine.MemoryBudget.defaultFor(ai.djl.Device.cpu()).bytes());
      }
    } finally {
      pool.shutdownNow();
    }
    // the comparison means something: the pairs are not all judged alike
    assertThat(one).extracting(PairResult::getDistinguished).contains(true, false);
  }
}
