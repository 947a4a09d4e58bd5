package io.expresso.runtime;

import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticResult;
import io.expresso.proto.v1.SyntheticTask;

/**
 * Synthetic load and fault tasks: busy-work (a real CPU loop, not a sleep) for {@code work_ms} on
 * the device's thread; {@code fail} injects an exception or a NaN for fault tests.
 */
public final class SyntheticEvaluator implements Evaluator<SyntheticTask> {

  @Override
  public boolean accepts(SyntheticTask task) {
    return true;
  }

  @Override
  public Result.Builder evaluate(SyntheticTask task, Device device, java.util.function.BooleanSupplier cancelled) {
    if (task.getWorkMs() < 0 || task.getWorkMs() > 600_000) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "work_ms " + task.getWorkMs() + " outside 0..600000");
    }
    switch (task.getFail()) {
      case "" -> { }
      case "exception" -> throw new IllegalStateException("injected failure (synthetic task " + task.getTaskId() + ")");
      case "nan" -> throw new TaskFailure(TaskFailure.NAN, "injected NaN (synthetic task " + task.getTaskId() + ")");
      default -> throw new TaskFailure(TaskFailure.INVALID_TASK, "unknown fault '" + task.getFail() + "'; use exception or nan");
    }
    long iterations = busyWork(task.getWorkMs());
    return Result.newBuilder().setSynthetic(SyntheticResult.newBuilder()
        .setWorkMs(task.getWorkMs())
        .setPublishedAtMs(task.getPublishedAtMs())
        .setPublishedAtNanos(task.getPublishedAtNanos())
        .setIterations(iterations));
  }

  /** Spins a xorshift generator until {@code ms} have passed; returns the iteration count. */
  static long busyWork(int ms) {
    if (ms == 0) {
      return 0;
    }
    long end = System.nanoTime() + ms * 1_000_000L;
    long x = 0x9E3779B97F4A7C15L;
    long n = 0;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
      }
      n += 1000;
    }
    return x == 42 ? n + 1 : n; // use x so the loop is not dead code
  }

  @Override
  public String toString() {
    return "synthetic";
  }
}
