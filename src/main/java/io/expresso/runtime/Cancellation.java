package io.expresso.runtime;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * Cooperative cancellation of one running task. The runtime cancels it (the task timed out, the
 * worker is stopping); evaluators hand it down as a plain
 * {@link BooleanSupplier} to trainers and attacks, which check it between batches, epochs and
 * beam steps and throw {@link java.util.concurrent.CancellationException} when it is set.
 */
public final class Cancellation implements BooleanSupplier {

  /**
   * Why a task was cancelled: a timeout ends in an error result; the others hand the task back, to
   * be RELEASEd to the share group and delivered again.
   */
  public enum Reason {
    /** The task ran past its kind's time limit: an error result naming the limit. */
    TIMEOUT,
    /** The worker is stopping past its grace: no result here, another delivery runs the task. */
    STOPPING,
    /**
     * The task gave up (a {@link java.util.concurrent.CancellationException}) though the runtime did
     * not cancel it, as an interrupted wait does: no result here, another delivery runs the task.
     */
    INTERRUPTED
  }

  private final AtomicReference<Reason> reason = new AtomicReference<>();

  /** Cancels with {@code why}; the first reason given is the one kept. */
  public void cancel(Reason why) {
    reason.compareAndSet(null, why);
  }

  /** True once cancelled. */
  @Override
  public boolean getAsBoolean() {
    return reason.get() != null;
  }

  /** The reason, or null while not cancelled. */
  public Reason reason() {
    return reason.get();
  }
}
