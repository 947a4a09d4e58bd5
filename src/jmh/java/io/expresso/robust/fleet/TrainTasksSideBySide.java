package io.expresso.robust.fleet;

import io.expresso.count.Pattern;
import io.expresso.proto.v1.TrainTask;
import io.expresso.robust.ModelStore;
import io.expresso.robust.Scale;
import io.expresso.robust.StudyJobs;
import io.expresso.robust.TrainJob;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.TaskProcessor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import io.expresso.runtime.kafka.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * N count-training tasks on a worker's D CPU devices, through the worker's task processor (each
 * device a thread taking the next task, as a worker's devices do), with and without the per-process
 * training lock that serialised them before (one training at a time, held around the evaluation
 * exactly as {@code TaskProcessor} held it), in alternating rounds so that both see the same load.
 * Prints each round's wall time and the paired ratios.
 *
 * <pre>
 * java -cp target/benchmarks.jar io.expresso.robust.fleet.TrainTasksSideBySide [tasks 4] [devices 2] [rounds 3] [model gin] [epochs 4]
 * </pre>
 */
public final class TrainTasksSideBySide {

  private TrainTasksSideBySide() {}

  public static void main(String[] args) throws Exception {
    int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    int devices = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String model = args.length > 3 ? args[3] : "gin";
    int epochs = args.length > 4 ? Integer.parseInt(args[4]) : 4;
    String spec = StudyJobs.resolveSpec(model, Pattern.TRIANGLE, Scale.TINY);
    System.out.printf(Locale.ROOT, "%d train tasks (%s, tiny scale, %d epochs) on %d CPU devices, %d rounds%n",
        tasks, spec, epochs, devices, rounds);
    run(tasks, devices, spec, epochs, true, -1); // warm-up: data, JIT, engine
    List<double[]> pairs = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      // alternate which goes first, so that neither always meets the other's leftovers
      boolean lockFirst = r % 2 == 0;
      double first = run(tasks, devices, spec, epochs, lockFirst, r);
      double second = run(tasks, devices, spec, epochs, !lockFirst, r);
      double locked = lockFirst ? first : second;
      double free = lockFirst ? second : first;
      pairs.add(new double[] {locked, free});
      System.out.printf(Locale.ROOT, "round %d: one at a time %.2f s, side by side %.2f s, ratio %.3f%n", r, locked,
          free, free / locked);
    }
    double[] ratios = pairs.stream().mapToDouble(p -> p[1] / p[0]).sorted().toArray();
    System.out.printf(Locale.ROOT, "side by side / one at a time: median %.3f (min %.3f, max %.3f)%n",
        ratios[ratios.length / 2], ratios[0], ratios[ratios.length - 1]);
  }

  /** One round: the wall seconds for all tasks, each task a fresh seed of this round. */
  private static double run(int tasks, int devices, String spec, int epochs, boolean oneAtATime, int round)
      throws Exception {
    ModelStore store = ModelStore.inMemory();
    EvaluatorRegistry registry = new EvaluatorRegistry();
    new RobustEvaluators(() -> store).register(registry);
    TaskProcessor processor = new TaskProcessor(registry, "bench", TaskObserver.NONE);
    ReentrantLock training = new ReentrantLock(); // the lock as it was: one training per process
    ConcurrentLinkedQueue<ConsumerRecord<String, byte[]>> queue = new ConcurrentLinkedQueue<>();
    for (int k = 0; k < tasks; k++) {
      TrainJob j = StudyJobs.train("bench", spec, Pattern.TRIANGLE, "er-0.3", Scale.TINY, k);
      j = new TrainJob(j.modelId() + "/r" + round + (oneAtATime ? "l" : "f"), j.spec(), j.pattern(), j.dataset(),
          j.scale(), j.seed(), null, j.testOn(), 0, epochs);
      TrainTask task = StudyTasks.trainTask("bench", j);
      ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(Topics.TASKS, k, 0, task.getHeader().getTaskId(),
          task.toByteArray());
      r.headers().add(new RecordHeader(Topics.HEADER_TASK_TYPE,
          TaskKind.TRAIN.messageType().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      queue.add(r);
    }
    ExecutorService pool = Executors.newFixedThreadPool(devices);
    long start = System.nanoTime();
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int d = 0; d < devices; d++) {
        DeviceSlot device = new DeviceSlot("cpu", d);
        running.add(pool.submit(() -> {
          for (ConsumerRecord<String, byte[]> r = queue.poll(); r != null; r = queue.poll()) {
            if (oneAtATime) {
              training.lock();
            }
            try {
              Outcome o = processor.process(r, device);
              if (o.failed()) {
                throw new IllegalStateException(o.result().getError().getMessage());
              }
            } finally {
              if (oneAtATime) {
                training.unlock();
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
