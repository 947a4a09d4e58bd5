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
    public Result.Builder evaluate(PairTask task, Device device, java.util.function.BooleanSupplier cancelled) throws Exception {
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
            Outcome o = processor.process(new ConsumerRecord<>(Topics.TASKS_PAIR, d, k, t.getHeader().getTaskId(), t.toByteArray()),
                new Device("cpu", d));
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
}
