package io.expresso.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void threadNamesMapToThePipelineStages() {
    assertThat(ThreadCpu.stageOf("bench-publisher")).isEqualTo("publisher");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | producer-3")).isEqualTo("publisher");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | producer-expresso-worker-1a2b3c4d"))
        .isEqualTo("worker producer");
    assertThat(ThreadCpu.stageOf("data-plane-kafka-request-handler-5")).isEqualTo("broker");
    assertThat(ThreadCpu.stageOf("expresso-worker-expresso.dispatchers.cpu-1-7")).isEqualTo("worker devices");
    assertThat(ThreadCpu.stageOf("expresso-worker-pekko.kafka.default-dispatcher-12")).isEqualTo("worker source + stream");
    assertThat(ThreadCpu.stageOf("expresso-aggregator")).isEqualTo("end consumer");
    assertThat(ThreadCpu.stageOf("expresso-tasks-worker-1a2b3c4d")).isEqualTo("worker source + stream");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | worker-1a2b3c4d-results")).isEqualTo("worker producer");
    assertThat(ThreadCpu.stageOf("expresso-tasks-worker-1a2b3c4d-1")).isEqualTo("worker source + stream");
    assertThat(ThreadCpu.stageOf("consumer_background_thread")).as("a share consumer's network thread")
        .isEqualTo("worker source + stream");
    assertThat(ThreadCpu.stageOf("Finalizer")).isEqualTo("other");
  }

  @Test
  void eachThreadsCpuSinceTheStartIsChargedToItsStage() {
    // thread 1 ran before the start (only its CPU since counts), 2 and 3 share a stage, 4 was born
    // since the start, 5 matches no stage; 6 ended in between, so it is not in "now"
    Map<Long, Long> start = Map.of(1L, 5_000_000_000L, 2L, 0L, 3L, 100_000_000L, 6L, 7_000_000_000L);
    Map<Long, Long> now = Map.of(1L, 5_250_000_000L, 2L, 500_000_000L, 3L, 400_000_000L, 4L, 2_000_000_000L,
        5L, 30_000_000L);
    Map<Long, String> names = Map.of(1L, "bench-publisher", 2L, "data-plane-kafka-request-handler-1",
        3L, "kafka-request-handler-2", 4L, "expresso-worker-expresso.dispatchers.cpu-1-7", 5L, "Finalizer");
    Map<String, Double> s = ThreadCpu.byStage(start, now, names);
    assertThat(s.keySet()).as("every stage, in pipeline order, other last").containsExactly("publisher", "broker",
        "worker source + stream", "worker devices", "worker producer", "end consumer", "other");
    assertThat(s.get("publisher")).isCloseTo(0.25, within(1e-12));
    assertThat(s.get("broker")).isCloseTo(0.8, within(1e-12));
    assertThat(s.get("worker devices")).isCloseTo(2.0, within(1e-12));
    assertThat(s.get("other")).isCloseTo(0.03, within(1e-12));
    assertThat(s.get("end consumer")).isZero();
  }

  @Test
  void theJvmsThreadsAreReadWithoutFailing() {
    // the clocks themselves: every stage present and no negative time (no timing claim)
    Map<String, Double> s = new ThreadCpu().secondsByStage();
    assertThat(s).containsKeys("publisher", "broker", "worker devices", "other");
    assertThat(s.values()).allSatisfy(v -> assertThat(v).isGreaterThanOrEqualTo(0.0));
  }
}
