package io.expresso.runtime;

import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticResult;
import io.expresso.proto.v1.SyntheticTask;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Synthetic load and fault tasks: busy-work (a real CPU loop, not a sleep) for {@code work_ms} on
 * the device's thread, cancellable between slices; {@code fail} injects an exception or a NaN.
 * {@code fault} is chaos testing, honoured only where faults are allowed (worker
 * {@code --allow-faults}): {@code crash} halts the JVM as a native abort or an OOM kill would,
 * {@code oom} throws a real OutOfMemoryError, {@code hang} works until cancelled.
 */
public final class SyntheticEvaluator implements Evaluator<SyntheticTask> {

  /** The exit status of a {@code crash} fault (128 + SIGABRT, as a native abort). */
  static final int CRASH_STATUS = 134;

  private final BooleanSupplier faultsAllowed;

  public SyntheticEvaluator(BooleanSupplier faultsAllowed) {
    this.faultsAllowed = faultsAllowed;
  }

  /** An evaluator that refuses faults. */
  public SyntheticEvaluator() {
    this(() -> false);
  }

  @Override
  public boolean accepts(SyntheticTask task) {
    return true;
  }

  @Override
  public Result.Builder evaluate(SyntheticTask task, DeviceSlot device, BooleanSupplier cancelled) {
    if (task.getWorkMs() < 0 || task.getWorkMs() > 600_000) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "work_ms " + task.getWorkMs() + " outside 0..600000");
    }
    switch (task.getFail()) {
      case "" -> { }
      case "exception" -> throw new IllegalStateException("injected failure (synthetic task " + task.getHeader().getTaskId() + ")");
      case "nan" -> throw new TaskFailure(TaskFailure.NAN, "injected NaN (synthetic task " + task.getHeader().getTaskId() + ")");
      default -> throw new TaskFailure(TaskFailure.INVALID_TASK, "unknown fault '" + task.getFail() + "'; use exception or nan");
    }
    if (!task.getFault().isEmpty()) {
      injectFault(task, cancelled);
    }
    long iterations = busyWork(task.getWorkMs(), cancelled);
    return Result.newBuilder().setSynthetic(SyntheticResult.newBuilder()
        .setWorkMs(task.getWorkMs())
        .setPublishedAtMs(task.getHeader().getPublishedAtMs())
        .setPublishedAtNanos(task.getPublishedAtNanos())
        .setIterations(iterations));
  }

  private void injectFault(SyntheticTask task, BooleanSupplier cancelled) {
    if (!faultsAllowed.getAsBoolean()) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "synthetic task " + task.getHeader().getTaskId() + " asks for fault '"
          + task.getFault() + "', but this worker does not inject faults (start it with --allow-faults for chaos tests)");
    }
    switch (task.getFault()) {
      case "crash" -> {
        System.err.println("synthetic task " + io.expresso.report.Escape.terminal(task.getHeader().getTaskId()) + ": injected crash, halting the JVM");
        Runtime.getRuntime().halt(CRASH_STATUS);
      }
      case "oom" -> {
        long[] huge = new long[Integer.MAX_VALUE]; // the JVM refuses it: a real OutOfMemoryError
        huge[0] = 1;
      }
      case "hang" -> {
        while (true) {
          busyWork(100, cancelled);
        }
      }
      default -> throw new TaskFailure(TaskFailure.INVALID_TASK, "unknown fault '" + task.getFault()
          + "'; use crash, oom or hang");
    }
  }

  /** Spins a xorshift generator until {@code ms} have passed; returns the iteration count. */
  static long busyWork(int ms, BooleanSupplier cancelled) {
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
      if (cancelled.getAsBoolean()) { // a volatile read per slice of 1000 steps: cheap
        throw new CancellationException("synthetic busy-work cancelled after " + n + " iterations");
      }
    }
    return x == 42 ? n + 1 : n; // use x so the loop is not dead code
  }

  @Override
  public String toString() {
    return "synthetic";
  }
}
