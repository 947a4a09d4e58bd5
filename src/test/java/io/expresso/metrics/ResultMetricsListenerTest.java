package io.expresso.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import org.junit.jupiter.api.Test;

class ResultMetricsListenerTest {

  @Test
  void exactPairsCountWithoutT2AndErrorsCountOnlyAsErrors() {
    try (Metrics m = new Metrics()) {
      ResultMetricsListener l = new ResultMetricsListener(m.results());
      l.onResult(Result.newBuilder().setExperimentId("e").setProvenance(Provenance.newBuilder().setTaskKind("pair"))
          .setPair(PairResult.newBuilder().setSuiteId("builtin").setCategory("CFI").setMethod("3-wl")
              .setDistinguished(true).setReliable(true).setExact(true)).build());
      l.onResult(Result.newBuilder().setExperimentId("e").setProvenance(Provenance.newBuilder().setTaskKind("pair"))
          .setError(TaskError.newBuilder().setReason("invalid-graph6").setMessage("bad")).build());
      assertThat(m.registry().get(MeterNames.PAIRS_EVALUATED).counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.PAIRS_DISTINGUISHED).counter().count()).isEqualTo(1.0);
      assertThat(m.registry().find(MeterNames.PAIR_T2).summary()).as("exact methods have no T²").isNull();
      assertThat(m.registry().find(MeterNames.TRAINING_EPOCHS).counter()).isNull();
      assertThat(m.registry().get(MeterNames.RESULTS).tag("kind", "pair").tag("outcome", "error").counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.RESULTS).tag("kind", "pair").tag("outcome", "ok").counter().count()).isEqualTo(1.0);
    }
  }

  @Test
  void gnnPairsRecordBothStatisticsAndTraining() {
    try (Metrics m = new Metrics()) {
      new ResultMetricsListener(m.results()).onResult(Result.newBuilder().setExperimentId("e")
          .setPair(PairResult.newBuilder().setSuiteId("s").setCategory("c").setMethod("gin")
              .setDistinguished(false).setReliable(false).setT2Test(10).setT2Reliability(100)
              .setEpochs(7).setFinalLoss(0.5).setPeakRssBytes(3L << 30)).build());
      assertThat(m.registry().get(MeterNames.PAIR_T2).tag("statistic", "test").summary().totalAmount()).isEqualTo(10.0);
      assertThat(m.registry().get(MeterNames.PAIR_T2).tag("statistic", "reliability").summary().totalAmount()).isEqualTo(100.0);
      assertThat(m.registry().get(MeterNames.PAIRS_RELIABILITY_FAILURES).counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.TRAINING_EPOCHS).counter().count()).isEqualTo(7.0);
      assertThat(m.registry().get(MeterNames.PAIR_PEAK_MEMORY).tag("model", "gin").summary().max()).isEqualTo(3L << 30);
      assertThat(m.registry().get(MeterNames.RESULTS).tag("kind", "pair").tag("outcome", "ok").counter().count()).isEqualTo(1.0);
    }
  }

  @Test
  void aRetrysSuccessTakesItsTaskOutOfTheFailedTasksAndIntoThePairCounts() {
    try (Metrics m = new Metrics()) {
      ResultMetricsListener l = new ResultMetricsListener(m.results());
      Provenance.Builder pair = Provenance.newBuilder().setTaskKind("pair");
      Result error = Result.newBuilder().setExperimentId("e").setTaskId("e/3-wl/0/s0").setProvenance(pair)
          .setError(TaskError.newBuilder().setReason("exception").setMessage("boom")).build();
      Result newerError = error.toBuilder().setError(TaskError.newBuilder().setReason("nan")).build();
      Result success = Result.newBuilder().setExperimentId("e").setTaskId("e/3-wl/0/s0").setProvenance(pair)
          .setPair(PairResult.newBuilder().setSuiteId("builtin").setCategory("CFI").setMethod("3-wl")
              .setDistinguished(true).setReliable(true).setExact(true)).build();
      l.onResult(error);
      assertThat(tasks(m, "error")).isEqualTo(1.0);
      l.onSuperseded(newerError);
      assertThat(tasks(m, "error")).as("still one failed task").isEqualTo(1.0);
      l.onSuperseded(success);
      assertThat(tasks(m, "error")).isEqualTo(0.0);
      assertThat(tasks(m, "ok")).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.PAIRS_EVALUATED).counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.PAIRS_DISTINGUISHED).counter().count()).isEqualTo(1.0);
      // the counter counts events: the task failed once, then succeeded once
      assertThat(m.registry().get(MeterNames.RESULTS).tag("kind", "pair").tag("outcome", "error").counter().count()).isEqualTo(1.0);
      assertThat(m.registry().get(MeterNames.RESULTS).tag("kind", "pair").tag("outcome", "ok").counter().count()).isEqualTo(1.0);
      l.onDuplicate(success);
      assertThat(tasks(m, "ok")).as("a duplicate counts once").isEqualTo(1.0);
      assertThat(m.scrape()).contains(
          "expresso_result_duplicates_total{kind=\"pair\"} 3.0",
          "expresso_experiment_tasks{kind=\"pair\",outcome=\"error\"} 0.0",
          "expresso_experiment_tasks{kind=\"pair\",outcome=\"ok\"} 1.0");
    }
  }

  private static double tasks(Metrics m, String outcome) {
    return m.registry().get(MeterNames.EXPERIMENT_TASKS).tag("kind", "pair").tag("outcome", outcome).gauge().value();
  }
}
