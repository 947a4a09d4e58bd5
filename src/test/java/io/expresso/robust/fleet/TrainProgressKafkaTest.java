package io.expresso.robust.fleet;

import io.expresso.robust.TrainResumeTest;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.metrics.MeterNames;
import io.expresso.metrics.Metrics;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import io.expresso.web.LiveService;
import io.micrometer.core.instrument.Gauge;
import org.junit.jupiter.api.Test;

/**
 * A train task's epochs travel from the worker through {@code expresso.progress} to the live
 * service: its page state and its {@code expresso_train_*} gauges (real broker, worker, training).
 */
@Integration
class TrainProgressKafkaTest {

  @Test
  void eachEpochOfARunningTrainTaskReachesThePageAndTheGauges() throws Exception {
    TrainJob job = TrainResumeTest.job("it-progress", 0); // 4 epochs of a small GIN
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.create(broker.clients(), Topics.Creation.singleNode(2, 1));
      try (Metrics metrics = new Metrics();
          LiveService live = LiveService.start(broker.clients(), "127.0.0.1", 0, metrics);
          Worker w = Worker.start(Worker.Settings.of(broker.clients(), DeviceSlot.parse("cpu:1")),
              EvaluatorRegistry.defaults(), TaskObserver.NONE);
          Publisher publisher = new Publisher(broker.clients())) {
        publisher.send(StudyJobs.taskId(job), StudyTasks.trainTask("it-progress", job));
        publisher.flush();
        long deadline = System.nanoTime() + 180_000_000_000L;
        double epoch = 0;
        while (epoch < 4 && System.nanoTime() < deadline) {
          Thread.sleep(200);
          Gauge g = metrics.registry().find(MeterNames.TRAIN_EPOCH).tag("experiment", "it-progress").gauge();
          epoch = g == null ? 0 : g.value();
        }
        assertThat(epoch).as("the last epoch's gauge").isEqualTo(4.0);
        assertThat(metrics.registry().get(MeterNames.TRAIN_L1).tag("split", "validation").gauge().value()).isPositive();
        assertThat(metrics.registry().get(MeterNames.TRAIN_LEARNING_RATE).gauge().value()).isPositive();
        // no aggregator is attached here, so the row stays after the task ends
        JsonNode exp = new ObjectMapper().readTree(live.state().json(System.currentTimeMillis()))
            .path("experiments").get(0);
        assertThat(exp.path("id").asText()).isEqualTo("it-progress");
        JsonNode row = exp.path("training").get(0);
        assertThat(row.path("task").asText()).isEqualTo(StudyJobs.taskId(job));
        assertThat(row.path("epoch").asInt()).isEqualTo(4);
        assertThat(row.path("max_epochs").asInt()).isEqualTo(4);
        assertThat(row.path("model").asText()).isEqualTo(job.spec());
        assertThat(row.path("validation_l1").asDouble()).isPositive();
        assertThat(row.path("worker").asText()).contains("@");
      }
    }
  }
}
