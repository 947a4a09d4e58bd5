package io.expresso.engine;

import ai.djl.pytorch.jni.JniUtils;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs independent inference passes side by side, one Java thread each, every thread with the
 * engine's intra-op threads: an evaluation that owns several cores embeds on all of them while
 * each pass computes exactly what it computes alone (same graphs, same kernels, same bits). The
 * threads live for the process, so the engine's per-thread state (oneDNN kernels, scratch memory)
 * is set up once.
 */
public final class PassThreads {

  private static final AtomicInteger NUMBER = new AtomicInteger();
  private static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "expresso-pass-" + NUMBER.incrementAndGet());
    t.setDaemon(true);
    return t;
  });

  /** One pass: its index in the batch's order. */
  public interface Pass {
    void run(int index);
  }

  private PassThreads() {}

  /**
   * Runs passes {@code 0..passes-1} on up to {@code threads} threads (the caller's among them),
   * each thread taking the next pass not yet taken, with autograd off in every thread; returns when
   * all have ended and rethrows the first failure.
   */
  public static void run(int passes, int threads, Pass pass) {
    int helpers = Math.max(0, Math.min(threads, passes) - 1);
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      boolean grad = JniUtils.isGradMode();
      JniUtils.setGradMode(false); // grad mode is per thread
      try {
        for (int i = next.getAndIncrement(); i < passes; i = next.getAndIncrement()) {
          pass.run(i);
        }
      } finally {
        JniUtils.setGradMode(grad);
      }
    };
    List<Future<?>> started = new ArrayList<>();
    for (int h = 0; h < helpers; h++) {
      started.add(POOL.submit(worker));
    }
    Throwable failure = null;
    try {
      worker.run();
    } catch (RuntimeException | Error e) {
      failure = e;
      next.set(passes); // the helpers take no further pass
    }
    // every helper must have ended before the caller goes on (and may close the model they read)
    boolean interrupted = false;
    for (Future<?> f : started) {
      while (true) {
        try {
          f.get();
          break;
        } catch (ExecutionException e) {
          failure = failure == null ? e.getCause() : failure;
          next.set(passes);
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
  }
}
