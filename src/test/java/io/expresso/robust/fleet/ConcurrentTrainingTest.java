package io.expresso.robust.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.count.Pattern;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TrainTask;
import io.expresso.robust.ModelStore;
import io.expresso.robust.Scale;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.Evaluator;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.TaskProcessor;
import io.expresso.runtime.TaskRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Two count-training tasks of one worker train at once on its two CPU devices, each with the bits
 * it has alone: real DJL training (GIN at the tiny scale, 80 graphs, 2 epochs), through the worker's task
 * processor, no lock between them. DJL's own gradient collector would refuse the second training
 * ("A PtGradientCollector is already collecting"); trainers record their own thread's gradients.
 */
class ConcurrentTrainingTest {

  private static final String SPEC = StudyJobs.resolveSpec("gin", Pattern.TRIANGLE, Scale.TINY);

  /** What one task left: its result, its checkpoint, and when its training ran (nanoTime). */
  record Run(Result result, byte[] checkpoint, long entered, long left) {}

  private static TrainJob job(long seed) {
    TrainJob j = StudyJobs.train("concurrent", SPEC, Pattern.TRIANGLE, "er-0.3", Scale.TINY, seed);
    return new TrainJob(j.modelId(), j.spec(), j.pattern(), j.dataset(), j.scale(), j.seed(), null, j.testOn(), 80, 2);
  }

  /**
   * Runs the jobs through one worker's task processor, job k on device cpu:k: all at once, or one
   * after the other on cpu:0.
   */
  private static List<Run> run(List<TrainJob> jobs, boolean atOnce) throws Exception {
    ModelStore store = ModelStore.inMemory();
    EvaluatorRegistry robust = new EvaluatorRegistry();
    new RobustEvaluators(() -> store).register(robust);
    Map<String, long[]> times = new ConcurrentHashMap<>();
    // the study's train evaluator, timed from inside: when each training actually ran
    Evaluator<TrainTask> timed = new Evaluator<>() {
      @Override
      public boolean accepts(TrainTask task) {
        return true;
      }

      @Override
      public Result.Builder evaluate(TrainTask task, DeviceSlot device, BooleanSupplier cancelled) throws Exception {
        long entered = System.nanoTime();
        try {
          return robust.find(TaskKind.TRAIN, task).evaluate(task, device, cancelled);
        } finally {
          times.put(task.getHeader().getTaskId(), new long[] {entered, System.nanoTime()});
        }
      }
    };
    TaskProcessor processor = new TaskProcessor(new EvaluatorRegistry().register(TaskKind.TRAIN, timed), "w",
        TaskObserver.NONE);
    List<Outcome> outcomes = new ArrayList<>();
    if (atOnce) {
      ExecutorService devices = Executors.newFixedThreadPool(jobs.size());
      CountDownLatch start = new CountDownLatch(1);
      try {
        List<Future<Outcome>> running = new ArrayList<>();
        for (int k = 0; k < jobs.size(); k++) {
          int d = k;
          running.add(devices.submit(() -> {
            start.await();
            return processor.process(record(jobs.get(d), d), new DeviceSlot("cpu", d));
          }));
        }
        start.countDown();
        for (Future<Outcome> f : running) {
          outcomes.add(f.get(5, TimeUnit.MINUTES));
        }
      } finally {
        devices.shutdownNow();
      }
    } else {
      for (int k = 0; k < jobs.size(); k++) {
        outcomes.add(processor.process(record(jobs.get(k), k), new DeviceSlot("cpu", 0)));
      }
    }
    List<Run> runs = new ArrayList<>();
    for (int k = 0; k < jobs.size(); k++) {
      Result r = outcomes.get(k).result();
      assertThat(r.hasError()).as("%s", r.getError()).isFalse();
      long[] t = times.get(r.getTaskId());
      runs.add(new Run(r, store.get(jobs.get(k).modelId()).orElseThrow(), t[0], t[1]));
    }
    return runs;
  }

  private static ConsumerRecord<String, byte[]> record(TrainJob job, int partition) {
    TrainTask task = StudyTasks.trainTask("concurrent", job);
    return TaskRecords.of(TaskKind.TRAIN, partition, 0, task.getHeader().getTaskId(), task.toByteArray());
  }

  @Test
  void twoTrainTasksTrainAtOnceOnTwoDevicesWithTheBitsEachHasAlone() throws Exception {
    List<TrainJob> jobs = List.of(job(1), job(2));
    List<Run> alone = run(jobs, false);
    List<Run> together = run(jobs, true);
    Run a = together.get(0);
    Run b = together.get(1);
    assertThat(a.entered()).as("the first training began before the second ended").isLessThan(b.left());
    assertThat(b.entered()).as("and the second before the first ended").isLessThan(a.left());
    for (int k = 0; k < jobs.size(); k++) {
      assertThat(together.get(k).result().getProvenance().getDevice()).isEqualTo("cpu:" + k);
      assertThat(together.get(k).checkpoint()).as("job %d's trained parameters", k).isEqualTo(alone.get(k).checkpoint());
      var t = together.get(k).result().getTrain();
      var s = alone.get(k).result().getTrain();
      assertThat(t.getEpochs()).isEqualTo(s.getEpochs()).isEqualTo(2);
      assertThat(t.getFinalLoss()).isEqualTo(s.getFinalLoss());
      assertThat(t.getValidationMae()).isEqualTo(s.getValidationMae());
      assertThat(t.getTestMae()).isEqualTo(s.getTestMae());
      assertThat(t.getErrorsList()).isEqualTo(s.getErrorsList());
    }
    assertThat(together.get(0).checkpoint()).as("two seeds, two models").isNotEqualTo(together.get(1).checkpoint());
  }
}
