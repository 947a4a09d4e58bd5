package io.expresso.runtime;

import io.expresso.robust.fleet.StudyTasks;
import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.PairTask;
import io.expresso.count.Pattern;
import io.expresso.proto.v1.Result;
import io.expresso.robust.Scale;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ShareGroup;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long tasks on an elastic fleet, against a real embedded broker with workers in child JVMs, all in
 * the one share group: joins and SIGTERM leaves mid-run, a SIGKILL during a long task, a worker
 * paused past its lock and session timeouts, a task that crashes every JVM it reaches, eight
 * workers on the task topic's one partition, an oversized task, a task timeout. The group's lock and
 * session are 6 s here (30 s and 45 s by default), so a lost task comes back within seconds. Checks
 * read every record in {@code expresso.results}, duplicates included, and what a reader counts.
 */
@Integration
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(240)
class FleetIntegrationTest {

  private static final int TASK_MS = 10_000;
  private static final Duration LOCK = Duration.ofSeconds(6);

  private EmbeddedBroker broker;
  @TempDir Path logs;

  @BeforeAll
  void startBroker() {
    broker = EmbeddedBroker.start(0, null);
    // the task topic's one partition (as deployed): more workers than partitions
    Topics.create(broker.clients(), Topics.Creation.singleNode(2, Topics.DEFAULT_TASK_PARTITIONS));
    ShareGroup.configure(broker.clients(), new ShareGroup.Settings(3, LOCK, LOCK, Duration.ofSeconds(1)));
  }

  @AfterAll
  void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void aJoinAndASigtermLeaveMidRunRunEveryLongTaskOnceWithoutStreamFailures() throws Exception {
    String exp = "elastic";
    try (WorkerProcess a = WorkerProcess.start(broker.bootstrap(), "elastic-a", logs).awaitServing();
         WorkerProcess b = WorkerProcess.start(broker.bootstrap(), "elastic-b", logs).awaitServing()) {
      publish(exp, 8, TASK_MS, "");
      Thread.sleep(4000);
      try (WorkerProcess c = WorkerProcess.start(broker.bootstrap(), "elastic-c", logs).awaitServing()) {
        Thread.sleep(8000);
        double inFlightOnLeaver = b.metric("expresso_tasks_in_flight");
        b.terminate(); // a scale-down: b finishes its running task, acknowledges it and leaves
        assertThat(b.awaitExit(Duration.ofSeconds(90))).as("exit status after SIGTERM (the JVM's 143)").isIn(0, 143);
        Map<String, List<Result>> results = awaitCommitted(exp, 8, Duration.ofSeconds(150));
        a.terminate();
        c.terminate();
        a.awaitExit(Duration.ofSeconds(60));
        c.awaitExit(Duration.ofSeconds(60));

        assertThat(results).hasSize(8);
        assertThat(results.values()).allSatisfy(rs -> assertThat(rs).as("committed results of one task").hasSize(1));
        assertThat(results.values().stream().flatMap(List::stream)).noneMatch(Result::hasError);
        for (WorkerProcess w : List.of(a, b, c)) {
          assertThat(w.logText()).as("log of %s", w.id).doesNotContain("share consumer failed").doesNotContain("lost the lock");
        }
        int work = 0;
        for (WorkerProcess w : List.of(a, b, c)) {
          int[] t = w.tally();
          work += t[0] + t[1];
        }
        // the leaver's one slot may start a task between the metric's read and the signal (a loaded CI
        // machine did): the leave may cost the task it held then, at least one
        assertThat(work).as("device work (run to a result or cancelled) over all workers: a %s, b %s, c %s",
                Arrays.toString(a.tally()), Arrays.toString(b.tally()), Arrays.toString(c.tally()))
            .isLessThanOrEqualTo(8 + Math.max(1, (int) inFlightOnLeaver));
        assertThat(results.values().stream().map(rs -> rs.get(0).getProvenance().getWorkerId()).collect(Collectors.toSet()))
            .as("the joiner took work").contains("elastic-c");
        assertThat(results.values().stream().map(rs -> rs.get(0).getProvenance().getWorkerId()))
            .as("the leaver ran only what it held when it got SIGTERM, after it none")
            .filteredOn("elastic-b"::equals).hasSizeLessThanOrEqualTo(3);
      }
    }
  }

  @Test
  void aTaskOfAWorkerKilledMidRunIsRedoneOnceElsewhereAfterItsLockExpires() throws Exception {
    String exp = "killed";
    try (WorkerProcess a = WorkerProcess.start(broker.bootstrap(), "killed-a", logs).awaitServing()) {
      publish(exp, 2, TASK_MS, "");
      awaitMetric(a, "expresso_tasks_in_flight", 1, Duration.ofSeconds(30));
      Thread.sleep(LOCK.toMillis()); // past one lock: a has renewed it
      long killed = System.currentTimeMillis();
      a.kill(); // SIGKILL mid-task: no result, no acknowledgement, nothing said to the group
      try (WorkerProcess b = WorkerProcess.start(broker.bootstrap(), "killed-b", logs).awaitServing()) {
        Map<String, List<Result>> results = awaitCommitted(exp, 2, Duration.ofSeconds(90));
        b.terminate();
        b.awaitExit(Duration.ofSeconds(60));
        assertThat(results.values()).allSatisfy(rs -> assertThat(rs).hasSize(1));
        assertThat(results.values().stream().map(rs -> rs.get(0).getProvenance().getWorkerId()))
            .containsOnly("killed-b");
        assertThat(b.tally()[0]).as("b ran each task once").isEqualTo(2);
        List<Result> redone = results.values().stream().map(rs -> rs.get(0))
            .filter(r -> r.getProvenance().getAttempt() == 2).toList();
        assertThat(redone).as("the killed task, on its second delivery (the other on its first)").hasSize(1);
        assertThat(redone.get(0).getProvenance().getStartedAtMs()).as("redone after a's lock ran out, not before")
            .isGreaterThanOrEqualTo(killed);
      }
    }
  }

  /**
   * A count model's training outlives its worker: worker a saves its trainer state every 5 epochs
   * (to expresso.models, {@code <model_id>#progress}) and is SIGKILLed after epoch 6; worker b takes
   * the task over, starts at epoch 6 from a's saved epoch 5 instead of epoch 1, and says so in the result.
   */
  @Test
  void aTrainTaskOfAKilledWorkerResumesFromItsSavedEpochsElsewhere() throws Exception {
    String exp = "resume";
    TrainJob job = new TrainJob("resume-gin-triangle", "gin:hidden=16,layers=2", Pattern.TRIANGLE, "er-0.3",
        Scale.SMALL, 0, null, List.of("er-0.3"), 300, 40);
    try (WorkerProcess a = WorkerProcess.start(broker.bootstrap(), "resume-a", logs).awaitServing()) {
      try (Publisher p = new Publisher(broker.bootstrap())) {
        p.send(StudyJobs.taskId(job), StudyTasks.trainTask(exp, job));
        p.flush();
      }
      a.awaitLog(" epoch 6:", 1, Duration.ofSeconds(120));
      a.kill(); // after the save at epoch 5, before the end: nothing committed
      try (WorkerProcess b = WorkerProcess.start(broker.bootstrap(), "resume-b", logs).awaitServing()) {
        Map<String, List<Result>> results = awaitCommitted(exp, 1, Duration.ofSeconds(150));
        b.terminate();
        b.awaitExit(Duration.ofSeconds(60));
        Result r = results.values().iterator().next().get(0);
        assertThat(r.hasError()).as("error: %s", r.getError().getMessage()).isFalse();
        assertThat(r.getProvenance().getWorkerId()).isEqualTo("resume-b");
        assertThat(r.getTrain().getResumedFromEpoch()).isGreaterThanOrEqualTo(5);
        assertThat(r.getTrain().getEpochs()).isGreaterThan(r.getTrain().getResumedFromEpoch());
        assertThat(b.logText()).as("b's first epoch is the one after a's save")
            .contains(" epoch " + (r.getTrain().getResumedFromEpoch() + 1) + ":").doesNotContain(" epoch 1:");
      }
    }
  }

  @Test
  void aWorkerPausedPastItsLockAndSessionLosesItsTaskAndItsLateResultCountsOnce() throws Exception {
    String exp = "zombie";
    try (WorkerProcess a = WorkerProcess.start(broker.bootstrap(), "zombie-a", logs).awaitServing()) {
      publish(exp, 1, 8_000, "");
      awaitMetric(a, "expresso_tasks_in_flight", 1, Duration.ofSeconds(30));
      a.signal("STOP"); // a GC pause, a network blip: a stays silent past its lock and its session
      try (WorkerProcess b = WorkerProcess.start(broker.bootstrap(), "zombie-b", logs).awaitServing()) {
        Map<String, List<Result>> results = awaitCommitted(exp, 1, Duration.ofSeconds(90));
        assertThat(results.values().iterator().next().get(0).getProvenance().getWorkerId()).isEqualTo("zombie-b");
        a.signal("CONT"); // a's task is done by now (busy-work runs on wall-clock time): a late result
        publish(exp + "-after", 2, 100, "");
        awaitCommitted(exp + "-after", 2, Duration.ofSeconds(60)); // the fleet, a included, serves on
        a.terminate();
        b.terminate();
        a.awaitExit(Duration.ofSeconds(60));
        b.awaitExit(Duration.ofSeconds(60));
        List<Result> all = committed(exp).values().iterator().next();
        assertThat(all).as("b's result, maybe a's late one").hasSizeBetween(1, 2);
        try (Aggregator reader = new Aggregator(broker.bootstrap(), exp).start()) {
          assertThat(reader.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
          assertThat(reader.uniqueCount()).as("a reader counts the task once").isEqualTo(1);
          assertThat(reader.results()).hasSize(1).noneMatch(Result::hasError);
          assertThat(reader.duplicatesSeen()).as("duplicates it saw and ignored").isEqualTo(all.size() - 1);
        }
      }
    }
  }

  /**
   * Eight workers on the task topic's one partition: a share group hands out tasks, not partitions,
   * so every worker runs a task at the same time.
   */
  @Test
  void eightWorkersOnOnePartitionAllRunTasksAtOnce() throws Exception {
    String exp = "eight";
    List<Worker> fleet = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        fleet.add(Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:1")).withWorkerId("eight-" + i)
            .withStopGrace(Duration.ofSeconds(30)), EvaluatorRegistry.defaults(), TaskObserver.NONE));
      }
      Thread.sleep(3000); // the members join
      publish(exp, 8, TASK_MS, "");
      Map<String, List<Result>> results = awaitCommitted(exp, 8, Duration.ofSeconds(120));
      assertThat(results.values()).allSatisfy(rs -> assertThat(rs).hasSize(1));
      List<Result> rs = results.values().stream().map(l -> l.get(0)).toList();
      assertThat(rs.stream().map(r -> r.getProvenance().getWorkerId()).distinct()).as("one task each").hasSize(8);
      long lastStart = rs.stream().mapToLong(r -> r.getProvenance().getStartedAtMs()).max().orElseThrow();
      long firstFinish = rs.stream().mapToLong(r -> r.getProvenance().getFinishedAtMs()).min().orElseThrow();
      assertThat(lastStart).as("the eighth task started before the first finished: all eight ran at once")
          .isLessThan(firstFinish);
    } finally {
      fleet.parallelStream().forEach(Worker::close);
    }
  }

  @Test
  void aTaskThatCrashesEveryWorkerBecomesPoisonAfterThreeDeliveriesAndTheRestComplete() throws Exception {
    String exp = "poison";
    WorkerProcess w = WorkerProcess.start(broker.bootstrap(), "poison-a", logs, "--allow-faults", "--max-deliveries", "3")
        .awaitServing();
    int crashes = 0;
    try {
      publish(exp, 6, 300, "crash"); // task 5 halts the JVM
      long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
      while (committed(exp).size() < 6) {
        assertThat(System.nanoTime()).as("all 6 tasks end; crashes so far %d", crashes).isLessThan(deadline);
        if (!w.alive()) {
          assertThat(w.awaitExit(Duration.ofSeconds(5))).as("a crash fault's exit status").isEqualTo(134);
          crashes++;
          // the orchestrator restarts it; the broker redelivers the task when the dead worker's lock expires
          w = WorkerProcess.start(broker.bootstrap(), "poison-a", logs, "--allow-faults", "--max-deliveries", "3")
              .awaitServing();
        }
        Thread.sleep(200);
      }
      Thread.sleep(2000);
      assertThat(w.alive()).as("the worker serves on").isTrue();
      assertThat(crashes).as("the poison task took the worker down once per delivery").isEqualTo(3);
      Map<String, List<Result>> results = committed(exp);
      Result poison = results.get(exp + "/synthetic/5").get(0);
      assertThat(poison.getError().getReason()).isEqualTo("poison");
      assertThat(poison.getError().getMessage()).startsWith("poison: 3 deliveries");
      assertThat(results.entrySet().stream().filter(e -> !e.getKey().endsWith("/5")).map(e -> e.getValue().get(0)))
          .hasSize(5).noneMatch(Result::hasError);
      List<ConsumerRecord<String, byte[]>> dead = CommittedRecords.of(broker.bootstrap(), Topics.DEAD_LETTERS).stream()
          .filter(r -> (exp + "/synthetic/5").equals(r.key())).toList();
      assertThat(dead).hasSize(1);
      assertThat(new String(dead.get(0).headers().lastHeader(Topics.HEADER_REASON).value(), StandardCharsets.UTF_8))
          .isEqualTo("poison: 3 deliveries");
    } finally {
      w.terminate();
      w.awaitExit(Duration.ofSeconds(60));
      w.close();
    }
  }

  @Test
  void aTwoMegabyteModelSpecEndsInABoundedDeadLetterAndTheWorkerGoesOn() throws Exception {
    String exp = "huge";
    String spec = "gin:" + "x".repeat(2 << 20);
    PairTask t = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId(exp).setTaskId(exp + "/huge")).setMethod(spec)
        .setGraphFirst("C~").setGraphSecond("C~").build();
    try (Worker w = Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:1")).withWorkerId("huge-worker"),
        EvaluatorRegistry.defaults(), TaskObserver.NONE);
         Publisher p = new Publisher(broker.bootstrap())) {
      p.send(t.getHeader().getTaskId(), t);
      p.send(exp + "/after", withId(TaskMessages.syntheticTask(exp, 0, 10), exp + "/after"));
      p.flush();
      Map<String, List<Result>> results = awaitCommitted(exp, 2, Duration.ofSeconds(90));
      assertThat(results.get(exp + "/huge").get(0).getError().getMessage().length()).isLessThan(8192);
      assertThat(results.get(exp + "/after").get(0).hasError()).isFalse();
      ConsumerRecord<String, byte[]> dead = CommittedRecords.of(broker.bootstrap(), Topics.DEAD_LETTERS).stream()
          .filter(r -> (exp + "/huge").equals(r.key())).findFirst().orElseThrow();
      assertThat(dead.value().length).isEqualTo(TaskProcessor.DEAD_LETTER_VALUE_LIMIT);
      assertThat(new String(dead.headers().lastHeader(Topics.HEADER_TRUNCATED).value(), StandardCharsets.UTF_8))
          .contains("of " + t.toByteArray().length + " bytes");
    }
  }

  @Test
  void aTaskPastItsKindsTimeLimitIsCancelledIntoAnErrorResultAndFreesTheDevice() throws Exception {
    String exp = "timeout";
    try (Worker w = Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:1")).withWorkerId("timeout-worker")
            .withFaults(true).withTimeouts(TaskTimeouts.parse("synthetic=2s")), EvaluatorRegistry.defaults(), TaskObserver.NONE);
         Publisher p = new Publisher(broker.bootstrap())) {
      p.send(exp + "/hang", withId(TaskMessages.syntheticTask(exp, 0, 10, "hang"), exp + "/hang"));
      p.send(exp + "/next", withId(TaskMessages.syntheticTask(exp, 1, 10), exp + "/next"));
      p.flush();
      Map<String, List<Result>> results = awaitCommitted(exp, 2, Duration.ofSeconds(60));
      Result hang = results.get(exp + "/hang").get(0);
      assertThat(hang.getError().getReason()).isEqualTo("timeout");
      assertThat(hang.getError().getMessage()).contains("limit of 2s");
      assertThat(hang.getProvenance().getComputeSeconds()).isLessThan(30);
      assertThat(results.get(exp + "/next").get(0).hasError()).isFalse();
    }
  }

  private void publish(String experiment, int n, int workMs, String fault) {
    try (Publisher p = new Publisher(broker.bootstrap())) {
      for (int i = 0; i < n; i++) {
        String f = !fault.isEmpty() && i == n - 1 ? fault : "";
        p.send(experiment + "/synthetic/" + i, TaskMessages.syntheticTask(experiment, i, workMs, f));
      }
      p.flush();
    }
  }

  private static void awaitMetric(WorkerProcess w, String name, double atLeast, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (w.metric(name) < atLeast) {
      assertThat(System.nanoTime()).as("%s of %s reaches %s", name, w.id, atLeast).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private Map<String, List<Result>> awaitCommitted(String experiment, int tasks, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, List<Result>> r;
    while ((r = committed(experiment)).size() < tasks) {
      assertThat(System.nanoTime()).as("%d of %d results of %s committed", r.size(), tasks, experiment).isLessThan(deadline);
      Thread.sleep(500);
    }
    return r;
  }

  /** Every committed result of {@code experiment}, by task id (duplicates kept). */
  private Map<String, List<Result>> committed(String experiment) throws Exception {
    Map<String, List<Result>> out = new HashMap<>();
    for (ConsumerRecord<String, byte[]> rec : CommittedRecords.of(broker.bootstrap(), Topics.RESULTS)) {
      Result r = Result.parseFrom(rec.value());
      if (r.getExperimentId().equals(experiment)) {
        out.computeIfAbsent(r.getTaskId(), k -> new ArrayList<>()).add(r);
      }
    }
    return out;
  }

  /** {@code t} under another task id. */
  private static io.expresso.proto.v1.SyntheticTask withId(io.expresso.proto.v1.SyntheticTask t, String id) {
    return t.toBuilder().setHeader(t.getHeader().toBuilder().setTaskId(id)).build();
  }
}
