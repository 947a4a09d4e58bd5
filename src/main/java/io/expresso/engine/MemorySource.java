package io.expresso.engine;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Where one evaluation's activation memory budget comes from: a budget of its own ({@link
 * #fixed}, what a user's {@code --memory-budget} gives every evaluation), or a share of a {@link
 * MemoryPool} that the evaluations running at once draw from.
 */
public interface MemorySource {

  /**
   * The budget for an evaluation whose passes keep their size under {@code need} bytes (see {@link
   * GraphModel#budgetForFullPasses}); it is given back when the lease is closed.
   *
   * @throws java.util.concurrent.CancellationException once {@code cancelled} is true while waiting
   */
  Lease lease(long need, BooleanSupplier cancelled);

  /**
   * Where an evaluation on {@code device} takes its memory from: the budget a user gave (every
   * evaluation's own), else a GPU's default budget split between the {@code atOnce} evaluations it
   * runs, else the CPU's {@link MemoryPool#cpu() pool}.
   */
  static MemorySource forDevice(ai.djl.Device device, MemoryBudget given, int atOnce) {
    return given != null ? fixed(given)
        : device.isGpu() ? fixed(MemoryBudget.defaultFor(device, atOnce)) : MemoryPool.cpu();
  }

  /** The same budget for every evaluation, whatever it needs and however many run at once. */
  static MemorySource fixed(MemoryBudget budget) {
    return (need, cancelled) -> new Lease(budget, () -> { });
  }

  /** A budget held until {@link #close()}. */
  final class Lease implements AutoCloseable {
    private final MemoryBudget budget;
    private final Runnable giveBack;
    private final AtomicBoolean closed = new AtomicBoolean();

    Lease(MemoryBudget budget, Runnable giveBack) {
      this.budget = budget;
      this.giveBack = giveBack;
    }

    public MemoryBudget budget() {
      return budget;
    }

    /** Gives the budget back (once, however often it is called). */
    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        giveBack.run();
      }
    }
  }
}
