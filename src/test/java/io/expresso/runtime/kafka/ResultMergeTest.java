package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticResult;
import io.expresso.proto.v1.TaskError;
import io.expresso.report.ResultSummary;
import io.expresso.testing.Integration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which result of a re-run task counts: the first success, else the latest error. The rule alone,
 * then applied by the aggregator to results on a real embedded broker.
 */
@Integration
class ResultMergeTest {

  private static Result error(String taskId, String reason) {
    return Result.newBuilder().setExperimentId("merge").setTaskId(taskId)
        .setProvenance(Provenance.newBuilder().setTaskKind("synthetic"))
        .setError(TaskError.newBuilder().setReason(reason).setMessage(reason + " in " + taskId)).build();
  }

  private static Result success(String taskId, long iterations) {
    return Result.newBuilder().setExperimentId("merge").setTaskId(taskId)
        .setProvenance(Provenance.newBuilder().setTaskKind("synthetic"))
        .setSynthetic(SyntheticResult.newBuilder().setIterations(iterations)).build();
  }

  /** What a task's results in arrival order merge to. */
  private static Result merged(Result... inArrivalOrder) {
    Result kept = inArrivalOrder[0];
    for (int i = 1; i < inArrivalOrder.length; i++) {
      if (ResultMerge.supersedes(kept, inArrivalOrder[i])) {
        kept = inArrivalOrder[i];
      }
    }
    return kept;
  }

  @Test
  void errorThenSuccessKeepsTheSuccess() {
    Result success = success("t", 1);
    assertThat(merged(error("t", "exception"), success)).isSameAs(success);
  }

  @Test
  void successThenErrorKeepsTheSuccess() {
    Result success = success("t", 1);
    assertThat(merged(success, error("t", "exception"))).isSameAs(success);
  }

  @Test
  void errorThenErrorKeepsTheLatestError() {
    Result latest = error("t", "nan");
    assertThat(merged(error("t", "exception"), latest)).isSameAs(latest);
  }

  @Test
  void theFirstSuccessStaysWhateverComesAfterIt() {
    Result first = success("t", 1);
    assertThat(merged(error("t", "exception"), first, success("t", 2), error("t", "nan"))).isSameAs(first);
  }

  @Test
  @Timeout(120)
  void theAggregatorKeepsTheMergedResultAndTellsListenersWhatReplacedWhat() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 1); // one partition: arrival order across tasks is the send order
      Result fixedError = error("merge/fixed", "exception");
      Result fixed = success("merge/fixed", 7);
      Result staysOk = success("merge/ok", 3);
      Result firstError = error("merge/failing", "exception");
      Result latestError = error("merge/failing", "nan");
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
      try (KafkaProducer<String, byte[]> producer =
          new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
        for (Result r : List.of(fixedError, staysOk, firstError, fixed, error("merge/ok", "exception"),
            latestError, success("merge/fixed", 8))) {
          producer.send(new ProducerRecord<>(Topics.RESULTS, r.getTaskId(), r.toByteArray())).get();
        }
      }

      List<String> heard = new ArrayList<>();
      try (Aggregator a = new Aggregator(broker.bootstrap(), "merge").addListener(new ResultListener() {
        @Override
        public void onResult(Result r) {
          heard.add("first " + r.getTaskId() + (r.hasError() ? " error" : " ok"));
        }

        @Override
        public void onDuplicate(Result r) {
          heard.add("duplicate " + r.getTaskId());
        }

        @Override
        public void onSuperseded(Result later) {
          heard.add(later.getTaskId() + ": error -> " + (later.hasError() ? later.getError().getReason() : "ok"));
        }
      }).start()) {
        assertThat(a.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(a.results()).as("one result per task, in first-arrival order")
            .containsExactly(fixed, staysOk, latestError);
        assertThat(a.result("merge/fixed")).contains(fixed);
        assertThat(a.succeededTaskIds()).containsExactlyInAnyOrder("merge/fixed", "merge/ok");
        assertThat(a.supersededSeen()).isEqualTo(2);
        assertThat(a.duplicatesSeen()).as("an error after a success, a second success").isEqualTo(2);
        assertThat(a.duplicateRecords()).isEqualTo(4);
        assertThat(new ResultSummary("merge", a.results()).errors()).isEqualTo(1);
      }
      assertThat(heard).containsExactlyInAnyOrder("first merge/fixed error", "first merge/ok ok",
          "first merge/failing error", "merge/fixed: error -> ok", "duplicate merge/ok",
          "merge/failing: error -> nan", "duplicate merge/fixed");
      assertThat(Aggregator.succeededTaskIds(broker.bootstrap(), "merge", Duration.ofSeconds(60)))
          .containsExactlyInAnyOrder("merge/fixed", "merge/ok");
      assertThat(Aggregator.succeededTaskIds(broker.bootstrap(), "other", Duration.ofSeconds(60))).isEmpty();
    }
  }
}
