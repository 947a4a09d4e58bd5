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
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slot that changes how many tasks it acquires a poll changes share consumers (Kafka fixes the
 * count when a consumer is created). The consumer it leaves may have acquired tasks it never
 * returned to a poll: closing it then releases them with their delivery count raised (Kafka 4.2+),
 * so they start elsewhere as a second attempt, and five such changes would archive a task that
 * never ran. Waves of tiny tasks with pauses between them (the slots grow at each wave and shrink
 * after each pause) must run every task at its first attempt.
 */
@Integration
@Timeout(240)
class ConsumerChangeTest {

  @Test
  void wavesOfTinyTasksRunEveryTaskAtItsFirstAttempt() throws Exception {
    int waves = 4;
    int perWave = 400;
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 1);
      try (Worker w = Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:2")).withWorkerId("waves"),
              EvaluatorRegistry.defaults(), TaskObserver.NONE);
           Aggregator results = new Aggregator(broker.bootstrap(), "waves").start();
           Publisher p = new Publisher(broker.bootstrap())) {
        assertThat(w.awaitJoined(Duration.ofSeconds(60))).as("the worker's slots joined").isTrue();
        for (int wave = 0; wave < waves; wave++) {
          for (int i = 0; i < perWave; i++) {
            int n = wave * perWave + i;
            p.send("waves/synthetic/" + n, TaskMessages.syntheticTask("waves", n, 1));
          }
          p.flush();
          assertThat(results.awaitUnique((wave + 1) * perWave, Duration.ofSeconds(60))).as("wave %d done", wave).isTrue();
          Thread.sleep(2500); // longer than a slot's DRAINED_AFTER: it forgets the durations and takes one again
        }
        Map<Integer, Long> byAttempt = new TreeMap<>(results.results().stream()
            .collect(Collectors.groupingBy(r -> r.getProvenance().getAttempt(), Collectors.counting())));
        assertThat(byAttempt).as("results by delivery attempt").containsOnlyKeys(1);
        assertThat(results.results()).extracting(Result::getTaskId).doesNotHaveDuplicates().hasSize(waves * perWave);
      }
    }
  }
}
