package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.runtime.kafka.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** DJL training tasks never overlap within a worker process; other tasks do. */
class TrainingExclusionTest {

  /** Records the most evaluations running at once. */
  static final class Probe implements Evaluator<PairTask> {
    final boolean trains;
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger most = new AtomicInteger();

    Probe(boolean trains) {
      this.trains = trains;
    }

    @Override
    public boolean accepts(PairTask task) {
      return true;
    }

    @Override
    public Result.Builder evaluate(PairTask task, DeviceSlot device, java.util.function.BooleanSupplier cancelled) throws Exception {
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      Thread.sleep(100);
      running.decrementAndGet();
      return Result.newBuilder().setPair(PairResult.newBuilder().setMethod("probe"));
    }

    @Override
    public boolean trainsWithDjl(PairTask task) {
      return trains;
    }
  }

  private static int mostAtOnce(boolean trains) throws Exception {
    Probe probe = new Probe(trains);
    TaskProcessor processor = new TaskProcessor(new EvaluatorRegistry().register(TaskKind.PAIR, probe), "w", TaskObserver.NONE);
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService devices = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        int d = i;
        done.add(devices.submit(() -> {
          start.await();
          for (int k = 0; k < 3; k++) {
            PairTask t = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("t" + d + "-" + k)).setMethod("probe").build();
            Outcome o = processor.process(TaskRecords.of(TaskKind.PAIR, d, k, t.getHeader().getTaskId(), t.toByteArray()),
                new DeviceSlot("cpu", d));
            assertThat(o.failed()).as("task %s failed", t.getHeader().getTaskId()).isFalse();
          }
          return null;
        }));
      }
      start.countDown();
      // get() rethrows what a device thread threw: an assertion there fails this test, not just its thread
      for (Future<?> f : done) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof AssertionError a) {
            throw a;
          }
          throw e;
        }
      }
    } finally {
      devices.shutdownNow();
    }
    return probe.most.get();
  }

  @Test
  void trainingTasksRunOneAtATimeAcrossDevices() throws Exception {
    assertThat(mostAtOnce(true)).isEqualTo(1);
  }

  @Test
  void otherTasksRunOnAllDevicesAtOnce() throws Exception {
    assertThat(mostAtOnce(false)).isGreaterThan(1);
  }

  @Test
  void aTaskWaitingForTheTrainingSlotIsMarkedAndHandedBackAtOnceWhenCancelled() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger evaluated = new AtomicInteger();
    Evaluator<PairTask> slow = new Evaluator<>() {
      @Override
      public boolean accepts(PairTask task) {
        return true;
      }

      @Override
      public boolean trainsWithDjl(PairTask task) {
        return true;
      }

      @Override
      public Result.Builder evaluate(PairTask task, DeviceSlot device, java.util.function.BooleanSupplier cancelled)
          throws Exception {
        evaluated.incrementAndGet();
        if (task.getHeader().getTaskId().equals("first")) {
          holding.countDown();
          release.await(); // a long training holding the slot
        }
        return Result.newBuilder().setPair(PairResult.newBuilder().setMethod("probe"));
      }
    };
    TaskProcessor processor = new TaskProcessor(new EvaluatorRegistry().register(TaskKind.PAIR, slow), "w",
        TaskObserver.NONE);
    ExecutorService devices = Executors.newFixedThreadPool(2);
    try {
      Future<Outcome> first = devices.submit(() -> processor.process(record("first", 0), new DeviceSlot("cpu", 0)));
      holding.await();
      Cancellation second = new Cancellation();
      Future<Outcome> queued = devices.submit(() -> processor.process(record("second", 1), new DeviceSlot("cpu", 1), second));
      long until = System.nanoTime() + 10_000_000_000L;
      while (!second.isWaiting() && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(second.isWaiting()).as("the second task waits for the slot").isTrue();
      second.cancel(Cancellation.Reason.STOPPING);
      Outcome handedBack = queued.get(5, java.util.concurrent.TimeUnit.SECONDS);
      assertThat(handedBack.handedBack()).isTrue();
      assertThat(second.isWaiting()).isFalse();
      assertThat(first.isDone()).as("while the first still trains").isFalse();
      assertThat(evaluated).as("the second never ran").hasValue(1);
      release.countDown();
      assertThat(first.get(5, java.util.concurrent.TimeUnit.SECONDS).failed()).isFalse();
    } finally {
      release.countDown();
      devices.shutdownNow();
    }
  }

  private static ConsumerRecord<String, byte[]> record(String id, int partition) {
    PairTask t = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId(id))
        .setMethod("probe").build();
    return TaskRecords.of(TaskKind.PAIR, partition, 0, id, t.toByteArray());
  }
}
