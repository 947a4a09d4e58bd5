package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph6;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.report.ResultSummary;
import io.expresso.report.SeedLeaderboard;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.GraphPair;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A pair task that fails still names its pair: the worker's error result keeps the pair's suite,
 * index, category, method (as a success names it) and seed, so that {@code results}, the reports
 * and the seed leaderboard count the failure in its category's errors and against its seed.
 */
class FailedPairResultTest {

  private final TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "w1", TaskObserver.NONE);
  private final DeviceSlot cpu = new DeviceSlot("cpu", 0);
  private final List<GraphPair> pairs = BuiltinSuite.generate().pairs().toList();

  private static PairTask task(GraphPair p, String method, long seed, boolean broken) {
    String id = "e/" + method + "/" + p.index() + "/s" + seed;
    return PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId(id))
        .setSuiteId("builtin").setPairIndex(p.index()).setCategory(p.category()).setGraphFirst(Graph6.encode(p.first()))
        .setGraphSecond(broken ? "~~~not graph6" : Graph6.encode(p.second())).setMethod(method).setSeed(seed).build();
  }

  private static ConsumerRecord<String, byte[]> record(PairTask t) {
    return TaskRecords.of(TaskKind.PAIR, 0, 0L, t.getHeader().getTaskId(), t.toByteArray());
  }

  private Result run(GraphPair p, String method, long seed, boolean broken) {
    return processor.process(record(task(p, method, seed, broken)), cpu).result();
  }

  private static void assertNames(Result failed, GraphPair p, String method, long seed) {
    assertThat(failed.hasError()).isTrue();
    assertThat(failed.getPair()).satisfies(r -> {
      assertThat(r.getSuiteId()).isEqualTo("builtin");
      assertThat(r.getPairIndex()).isEqualTo(p.index());
      assertThat(r.getCategory()).isEqualTo(p.category());
      assertThat(r.getMethod()).isEqualTo(method);
      assertThat(r.getSeed()).isEqualTo(seed);
      assertThat(r.getDistinguished()).isFalse();
      assertThat(r.getReliable()).isFalse();
      assertThat(r.getT2Test()).isZero();
      assertThat(r.getEpochs()).isZero();
    });
  }

  @Test
  void anErrorResultOfAPairTaskNamesItsPairAsASuccessWould() {
    GraphPair p = pairs.get(0);
    Result ok = run(p, "3-WL", 4, false);
    Result failed = run(p, "3-WL", 4, true);
    assertThat(failed.getError().getReason()).isEqualTo(TaskFailure.INVALID_GRAPH6);
    assertThat(failed.hasPair()).as("the error result keeps the pair's identity").isTrue();
    assertNames(failed, p, ok.getPair().getMethod(), 4); // named as the success names it: 3-wl
    assertThat(failed.getPair().getExact()).isTrue();
  }

  @Test
  void aGnnPairThatFailsIsNamedByItsFullSpecAsItsSuccessIs() {
    GraphPair p = pairs.get(1);
    Result failed = run(p, "gin:layers=2", 3, true);
    assertThat(failed.getError().getReason()).isEqualTo(TaskFailure.INVALID_GRAPH6);
    assertNames(failed, p, io.expresso.model.ModelSpec.parse("gin:layers=2").toText(), 3);
  }

  @Test
  void anUnknownModelKeepsTheMethodAsTheTaskWroteIt() {
    GraphPair p = pairs.get(2);
    Result failed = run(p, "gin-xl", 7, false);
    assertThat(failed.getError().getReason()).isEqualTo(TaskFailure.UNKNOWN_MODEL);
    assertNames(failed, p, "gin-xl", 7);
  }

  @Test
  void aTimedOutAPoisonAndANanPairKeepTheirIdentityAnUndecodableTaskHasNone() {
    GraphPair p = pairs.get(0);
    Cancellation timedOut = new Cancellation();
    timedOut.cancel(Cancellation.Reason.TIMEOUT);
    Result timeout = processor.process(record(task(p, "3-wl", 2, false)), cpu, timedOut).result();
    assertThat(timeout.getError().getReason()).isEqualTo(TaskFailure.TIMEOUT);
    assertNames(timeout, p, "3-wl", 2);
    Result poison = processor.poison(record(task(p, "3-wl", 2, false)), cpu, 3).result();
    assertThat(poison.getError().getReason()).isEqualTo(TaskFailure.POISON);
    assertNames(poison, p, "3-wl", 2);

    EvaluatorRegistry nan = judging(task -> PairIdentity.of(task, "nan-model").setDistinguished(true)
        .setT2Test(Double.NaN));
    Result failed = new TaskProcessor(nan, "w", TaskObserver.NONE).process(record(task(p, "nan", 5, false)), cpu).result();
    assertThat(failed.getError().getReason()).isEqualTo(TaskFailure.NAN);
    assertNames(failed, p, "nan", 5); // no identity from the evaluator: the task's own method

    // +∞ is a statistic, not a failure: the same non-zero difference in every relabeling (HotellingT2)
    EvaluatorRegistry spreadless = judging(task -> PairIdentity.of(task, "spreadless").setDistinguished(true)
        .setT2Test(Double.POSITIVE_INFINITY).setThreshold(72.3));
    Result infinite = new TaskProcessor(spreadless, "w", TaskObserver.NONE).process(record(task(p, "inf", 5, false)), cpu)
        .result();
    assertThat(infinite.hasError()).as("%s", infinite.getError()).isFalse();
    assertThat(infinite.getPair().getT2Test()).isEqualTo(Double.POSITIVE_INFINITY);

    PairTask hostile = task(p, "3-wl", 2, true).toBuilder().setCategory("c".repeat(TaskProcessor.IDENTITY_LIMIT)).build();
    Result big = processor.process(record(hostile), cpu).result();
    assertThat(big.getError().getReason()).isEqualTo(TaskFailure.INVALID_GRAPH6);
    assertThat(big.getPayloadCase()).as("names too long to keep").isEqualTo(Result.PayloadCase.PAYLOAD_NOT_SET);

    Result undecodable = processor.process(TaskRecords.of(TaskKind.PAIR, 0, 0L, "x",
        new byte[] {(byte) 0xff, (byte) 0xff, 0x01}), cpu).result();
    assertThat(undecodable.getError().getReason()).isEqualTo(TaskFailure.UNDECODABLE);
    assertThat(undecodable.getPayloadCase()).isEqualTo(Result.PayloadCase.PAYLOAD_NOT_SET);
  }

  @Test
  void aFailedPairCountsInItsCategorysErrorsAndAgainstItsSeed() {
    String category = pairs.get(0).category();
    List<GraphPair> same = pairs.stream().filter(p -> p.category().equals(category)).limit(3).toList();
    List<Result> results = new ArrayList<>();
    for (long seed : new long[] {0, 1}) {
      for (GraphPair p : same) {
        // seed 1 fails on the first pair of the category
        results.add(run(p, "3-wl", seed, seed == 1 && p == same.get(0)));
      }
    }
    ResultSummary s = new ResultSummary("e", results);
    assertThat(s.errors()).isEqualTo(1);
    SeedLeaderboard.Entry e = s.leaderboard().get(0);
    assertThat(s.leaderboard()).hasSize(1);
    assertThat(e.configuration().seeds()).hasSize(2);
    // a failed pair is not distinguished for its seed, so seed 1 scores lower and seed 0 is the best
    assertThat(e.configuration().seeds().get(1).distinguished())
        .isLessThanOrEqualTo(e.configuration().seeds().get(0).distinguished());
    // nor reliable (as `expresso eval` counts a failed pair): its seed fails reliability, so by
    // BREC's rule the configuration does not count until a retry succeeds
    assertThat(e.configuration().seeds().get(1).reliabilityFailures()).isEqualTo(1);
    assertThat(e.configuration().failingSeeds()).containsExactly(1L);
    assertThat(e.counts()).isFalse();
    assertThat(e.bestSeed()).isZero();
    assertThat(s.rows()).noneMatch(r -> r.method().equals("?"));
    // under one seed: the failed pair is in its category's row, counted in its errors column
    ResultSummary seed1 = new ResultSummary("e", results.subList(3, 6));
    assertThat(seed1.rows()).extracting(ResultSummary.Row::method, ResultSummary.Row::category,
        ResultSummary.Row::tasks, ResultSummary.Row::errors).containsExactly(org.assertj.core.groups.Tuple.tuple(
            "3-wl", category, 3, 1));
    assertThat(seed1.json()).contains("\"name\":\"" + category + "\",\"method\":\"3-wl\",\"tasks\":3");
  }

  /** A registry whose one pair evaluator answers every task with {@code judge}'s pair result. */
  private static EvaluatorRegistry judging(java.util.function.Function<PairTask, io.expresso.proto.v1.PairResult.Builder> judge) {
    EvaluatorRegistry r = new EvaluatorRegistry();
    r.register(TaskKind.PAIR, new Evaluator<PairTask>() {
      @Override
      public boolean accepts(PairTask task) {
        return true;
      }

      @Override
      public Result.Builder evaluate(PairTask task, DeviceSlot device, java.util.function.BooleanSupplier cancelled) {
        return Result.newBuilder().setPair(judge.apply(task));
      }
    });
    return r;
  }
}
