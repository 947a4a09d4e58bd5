package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Result;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slot that changes how many tasks it acquires a poll changes share consumers (Kafka fixes the
 * count when a consumer is created), and a consumer closed while its fetch holds tasks it acquired
 * but never returned to a poll hands them back with their delivery count raised (Kafka 4.2+,
 * KAFKA-19972): they start elsewhere as a later attempt, and after the group's delivery limit a task
 * that never ran is archived.
 */
@Integration
@Timeout(240)
class ConsumerChangeTest {

  /**
   * Waves of tiny tasks whose pauses sweep across the moment a drained slot changes consumers
   * (DRAINED_AFTER, 2 s). Disabled: it reproduces the defect that remains (docs/runtime.md, "Second
   * attempts at a consumer change"): a consumer closed at a drain races the next burst.
   */
  @Test
  @Disabled("reproduces the remaining drain race (docs/runtime.md): about 200 of 2,200 tasks at a later attempt")
  void wavesOfTinyTasksRunEveryTaskAtItsFirstAttempt() throws Exception {
    int waves = 11;
    int perWave = 200;
    try (OneWorker f = OneWorker.start("waves")) {
      Aggregator results = f.results();
      Publisher p = f.publisher();
      for (int wave = 0; wave < waves; wave++) {
        for (int i = 0; i < perWave; i++) {
          int n = wave * perWave + i;
          p.send("waves/synthetic/" + n, TaskMessages.syntheticTask("waves", n, 1));
        }
        p.flush();
        assertThat(results.awaitUnique((wave + 1) * perWave, Duration.ofSeconds(60))).as("wave %d done", wave).isTrue();
        Thread.sleep(2000 + 100 * wave); // across the moment the slots, their queue drained for DRAINED_AFTER (2 s), change consumers
      }
      Map<Integer, Long> byAttempt = new TreeMap<>(results.results().stream()
          .collect(Collectors.groupingBy(r -> r.getProvenance().getAttempt(), Collectors.counting())));
      assertThat(byAttempt).as("results by delivery attempt").containsOnlyKeys(1);
      assertThat(results.results()).extracting(Result::getTaskId).doesNotHaveDuplicates().hasSize(waves * perWave);
    }
  }

  /**
   * Tiny tasks and a few of 150 ms in turn, all published at once: each slot's count goes up and
   * down while the queue is full (a consumer joining with a larger count, then given up). Before the
   * replaced consumer was polled once more and kept until its tasks were acknowledged, 1,152 of
   * 1,872 tasks ran at attempt 2 or 3 here; since, 0 or 1.
   */
  @Test
  void tasksOfChangingLengthsInAFullQueueAlmostAllRunAtTheirFirstAttempt() throws Exception {
    int blocks = 12;
    try (OneWorker f = OneWorker.start("mixed")) {
      Aggregator results = f.results();
      Publisher p = f.publisher();
      int n = 0;
      for (int b = 0; b < blocks; b++) { // tiny tasks, then a few of 150 ms: the slots' counts go up and down
        for (int i = 0; i < 150; i++, n++) {
          p.send("mixed/synthetic/" + n, TaskMessages.syntheticTask("mixed", n, 0));
        }
        for (int i = 0; i < 6; i++, n++) {
          p.send("mixed/synthetic/" + n, TaskMessages.syntheticTask("mixed", n, 150));
        }
      }
      p.flush();
      assertThat(results.awaitUnique(n, Duration.ofSeconds(120))).as("all done").isTrue();
      Map<Integer, Long> byAttempt = new TreeMap<>(results.results().stream()
          .collect(Collectors.groupingBy(r -> r.getProvenance().getAttempt(), Collectors.counting())));
      long later = n - byAttempt.getOrDefault(1, 0L);
      // a consumer given up is closed right after a poll that found nothing; a fetch answered in
      // between still goes back (1 of 1,872 once): at most 1 %, where it was 62 %
      assertThat(later).as("tasks at a later attempt, of %d (by attempt: %s)", n, byAttempt).isLessThanOrEqualTo(n / 100);
    }
  }

  /**
   * Tiny tasks, a pause past DRAINED_AFTER, then a few long ones (a warm-up, then the work): the
   * long ones must neither wait in one slot's batch nor go back counted as a delivery.
   */
  @Test
  void longTasksAfterADrainedBurstOfTinyOnesRunOnEverySlotAtTheirFirstAttempt() throws Exception {
    try (OneWorker f = OneWorker.start("after")) {
      Aggregator results = f.results();
      Publisher p = f.publisher();
      int tiny = 400;
      for (int i = 0; i < tiny; i++) {
        p.send("after/synthetic/" + i, TaskMessages.syntheticTask("after", i, 1));
      }
      p.flush();
      assertThat(results.awaitUnique(tiny, Duration.ofSeconds(60))).as("tiny tasks done").isTrue();
      Thread.sleep(4000); // past DRAINED_AFTER (2 s)
      int longOnes = 4;
      for (int i = tiny; i < tiny + longOnes; i++) {
        p.send("after/synthetic/" + i, TaskMessages.syntheticTask("after", i, 1500));
      }
      p.flush();
      assertThat(results.awaitUnique(tiny + longOnes, Duration.ofSeconds(60))).as("long tasks done").isTrue();
      List<Result> late = results.results().stream().filter(r -> Integer.parseInt(
          r.getTaskId().substring(r.getTaskId().lastIndexOf('/') + 1)) >= tiny).toList();
      assertThat(late).extracting(r -> r.getProvenance().getAttempt()).as("attempts of the long tasks").containsOnly(1);
      assertThat(late.stream().map(r -> r.getProvenance().getDevice()).distinct().count())
          .as("devices that ran the long tasks").isEqualTo(2);
    }
  }

  /** A broker, a worker of two CPU slots that joined its share group, its results and a publisher. */
  private record OneWorker(EmbeddedBroker broker, Worker worker, Aggregator results, Publisher publisher)
      implements AutoCloseable {

    static OneWorker start(String name) throws Exception {
      EmbeddedBroker broker = EmbeddedBroker.start(0, null);
      Topics.ensure(broker.bootstrap(), 1);
      Worker w = Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:2")).withWorkerId(name),
          EvaluatorRegistry.defaults(), TaskObserver.NONE);
      OneWorker f = new OneWorker(broker, w, new Aggregator(broker.bootstrap(), name).start(),
          new Publisher(broker.bootstrap()));
      assertThat(w.awaitJoined(Duration.ofSeconds(60))).as("the worker's slots joined").isTrue();
      return f;
    }

    @Override
    public void close() throws Exception {
      try (broker; worker; results; publisher) {
        // try-with-resources closes them in reverse: publisher, results, worker, broker
      }
    }
  }
}
