package io.expresso.robust.fleet;

import io.expresso.robust.TrainOutcome;
import io.expresso.robust.Scale;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.RobustProtos;
import io.expresso.robust.TrainJob;
import io.expresso.robust.RobustnessExperiment;
import io.expresso.robust.SearchGrid;
import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.count.Pattern;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import io.expresso.proto.v1.TrainResult;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Running an experiment id again resumes it: jobs that already succeeded are not published and
 * their stored outcomes are used; a job that failed is published again, and its old error does not
 * fail the phase. The test plays the worker by writing results itself.
 */
@Integration
class KafkaExecutorResumeTest {

  private static final String EXPERIMENT = "resume-study";

  @Test
  @Timeout(120)
  void aSecondRunPublishesOnlyTheJobsWithoutASuccess() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      String bootstrap = broker.bootstrap();
      Topics.ensure(bootstrap, 1);
      String spec = StudyJobs.resolveSpec("gin", Pattern.TRIANGLE, Scale.TINY);
      List<TrainJob> jobs = new ArrayList<>();
      for (long seed = 0; seed < 3; seed++) {
        jobs.add(StudyJobs.train(EXPERIMENT, spec, Pattern.TRIANGLE, "er-0.3", Scale.TINY, seed));
      }
      TrainOutcome done0 = outcome(jobs.get(0), 11);
      TrainOutcome done1 = outcome(jobs.get(1), 12);
      TrainOutcome done2 = outcome(jobs.get(2), 13);
      write(bootstrap, success(jobs.get(0), done0));
      write(bootstrap, Result.newBuilder().setExperimentId(EXPERIMENT).setTaskId(StudyJobs.taskId(jobs.get(1)))
          .setProvenance(Provenance.newBuilder().setTaskKind("train"))
          .setError(TaskError.newBuilder().setReason("exception").setMessage("an earlier run failed")).build());

      List<TrainOutcome> heard = new ArrayList<>();
      try (KafkaExecutor executor = new KafkaExecutor(bootstrap, EXPERIMENT, Duration.ofSeconds(60))) {
        CompletableFuture<List<TrainOutcome>> phase = CompletableFuture.supplyAsync(() -> executor.train(jobs, o -> {
          synchronized (heard) {
            heard.add(o);
          }
        }));
        List<String> published = awaitTaskKeys(bootstrap, 2);
        assertThat(published).containsExactlyInAnyOrder(StudyJobs.taskId(jobs.get(1)), StudyJobs.taskId(jobs.get(2)));
        write(bootstrap, success(jobs.get(1), done1));
        write(bootstrap, success(jobs.get(2), done2));
        assertThat(phase.get(60, TimeUnit.SECONDS)).containsExactly(done0, done1, done2);
      }
      assertThat(heard).containsExactlyInAnyOrder(done0, done1, done2);
    }
  }

  @Test
  @Timeout(120)
  void aHalfDoneGridSearchPublishesOnlyItsMissingPoints() throws Exception {
    RobustnessExperiment exp = new RobustnessExperiment(EXPERIMENT, Scale.TINY, List.of("gin"),
        List.of(Pattern.TRIANGLE), false, new RobustnessExperiment.Sizes(100, 2, 2),
        SearchGrid.parse("lr=0.01,0.003;batch=8,16", SearchGrid.of(Scale.TINY)), Map.of());
    List<TrainJob> grid = exp.searchJobs();
    assertThat(grid).hasSize(4 * 2); // 2 rates x 2 batches, 2 seeds
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      String bootstrap = broker.bootstrap();
      Topics.ensure(bootstrap, 1);
      List<TrainOutcome> expected = new ArrayList<>();
      for (int i = 0; i < grid.size(); i++) {
        expected.add(outcome(grid.get(i), 10 + i));
      }
      for (int i = 0; i < grid.size(); i += 2) { // the first sitting finished every other point x seed
        write(bootstrap, success(grid.get(i), expected.get(i)));
      }
      try (KafkaExecutor executor = new KafkaExecutor(bootstrap, EXPERIMENT, Duration.ofSeconds(60))) {
        CompletableFuture<List<TrainOutcome>> phase = CompletableFuture.supplyAsync(() -> executor.train(grid, o -> {}));
        List<String> published = awaitTaskKeys(bootstrap, grid.size() / 2);
        assertThat(published).containsExactlyInAnyOrderElementsOf(
            java.util.stream.IntStream.range(0, grid.size()).filter(i -> i % 2 == 1)
                .mapToObj(i -> StudyJobs.taskId(grid.get(i))).toList());
        for (int i = 1; i < grid.size(); i += 2) {
          write(bootstrap, success(grid.get(i), expected.get(i)));
        }
        assertThat(phase.get(60, TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
      }
    }
  }

  private static TrainOutcome outcome(TrainJob job, int epochs) {
    return new TrainOutcome(job, Map.of(), epochs, 0.25, epochs - 1, 0.5, 7, 1.5);
  }

  private static Result success(TrainJob job, TrainOutcome o) {
    return Result.newBuilder().setExperimentId(EXPERIMENT).setTaskId(StudyJobs.taskId(job))
        .setProvenance(Provenance.newBuilder().setTaskKind("train"))
        .setTrain(RobustProtos.result(o)).build();
  }

  private static void write(String bootstrap, Result r) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(Topics.RESULTS, r.getTaskId(), r.toByteArray())).get();
    }
  }

  /** The keys of the first {@code n} records on the train task topic. */
  private static List<String> awaitTaskKeys(String bootstrap, int n) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<String> keys = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition tp = new TopicPartition(Topics.TASKS, 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (keys.size() < n) {
        assertThat(System.nanoTime()).as("train tasks published").isLessThan(deadline);
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
          keys.add(r.key());
        }
      }
      // nothing more comes: the job that succeeded before is not published again
      for (int i = 0; i < 5; i++) {
        c.poll(Duration.ofMillis(200)).forEach(r -> keys.add(r.key()));
      }
    }
    return keys;
  }
}
