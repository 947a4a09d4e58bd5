package io.expresso.cli;

import io.expresso.suite.GraphPair;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluationException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Judges an {@code eval}'s pairs up to N at a time, one Java thread each, as a worker's CPU devices
 * do. A pair's arithmetic does not depend on N: each evaluation trains on the engine's intra-op
 * threads (one by default), whatever runs beside it, so N only decides how many cores are busy.
 * A pair that cannot be judged ({@link PairEvaluationException}) is reported and the others go on;
 * any other failure stops the pairs not yet started, waits for the running ones and is rethrown.
 */
final class PairsAtOnce {

  /** One pair of one seed's run, at {@code position} in the suite's order. */
  record Job(int run, int position, long seed, GraphPair pair) {}

  /** Judges one job; {@code stop} turns true once another job failed. */
  interface Judge {
    PairEvaluation judge(Job job, BooleanSupplier stop);
  }

  /** Called once per job as it ends, one call at a time: its result, or why it has none. */
  interface Done {
    void accept(Job job, PairEvaluation result, PairEvaluationException error);
  }

  private PairsAtOnce() {}

  /** Runs every job, {@code atOnce} at a time; returns when all have ended. */
  static void run(List<Job> jobs, int atOnce, Judge judge, Done done) {
    if (atOnce < 1) {
      throw new IllegalArgumentException("pairs at once must be at least 1, got " + atOnce);
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(atOnce, jobs.size())), r -> {
      Thread t = new Thread(r, "expresso-eval-" + threads.incrementAndGet());
      t.setDaemon(true); // an interrupted eval (Ctrl-C) exits without waiting for its pairs
      return t;
    });
    Object lock = new Object();
    List<Future<?>> futures = new ArrayList<>();
    try {
      for (Job job : jobs) {
        futures.add(pool.submit(() -> {
          if (stop.get()) {
            return;
          }
          try {
            PairEvaluation result = null;
            PairEvaluationException error = null;
            try {
              result = judge.judge(job, stop::get);
            } catch (PairEvaluationException e) {
              error = e;
            }
            synchronized (lock) {
              done.accept(job, result, error);
            }
          } catch (RuntimeException | Error e) { // a results file that cannot be written stops the rest too
            stop.set(true);
            throw e;
          }
        }));
      }
      RuntimeException first = null;
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof Error err) {
            throw err;
          }
          if (first == null || first instanceof CancellationException) {
            first = cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
          }
        } catch (InterruptedException e) {
          stop.set(true);
          Thread.currentThread().interrupt();
          throw new CancellationException("interrupted while pairs were being judged");
        }
      }
      if (first != null) {
        throw first;
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
