package io.expresso.engine;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Where one evaluation's activation memory budget comes from: a budget of its own (what a user's
 * {@code --memory-budget} gives every evaluation), or a share of the {@link MemoryPool} of its
 * device that the evaluations running at once on it draw from.
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
   * As {@link #lease}, the budget the same (so the same passes), granted once no other lease of
   * this memory is held and holding off every other until it is closed: the rerun of a pair that
   * ran out of the device's memory beside others then runs alone on the device. A source that
   * shares its memory with no one has no one to wait for: its {@link #lease}.
   */
  default Lease leaseAlone(long need, BooleanSupplier cancelled) {
    return lease(need, cancelled);
  }

  /** This source with every lease {@linkplain #leaseAlone alone}. */
  default MemorySource alone() {
    MemorySource shared = this;
    return new MemorySource() {
      @Override
      public Lease lease(long need, BooleanSupplier cancelled) {
        return shared.leaseAlone(need, cancelled);
      }

      @Override
      public Lease leaseAlone(long need, BooleanSupplier cancelled) {
        return shared.leaseAlone(need, cancelled);
      }
    };
  }

  /**
   * Where an evaluation on {@code device} takes its memory from: the {@link MemoryPool#of pool} of
   * that physical device (a GPU's slots share their GPU's, the CPU devices the CPU's), each
   * evaluation leasing what its passes need; or, where a user gave a budget, that budget for every
   * evaluation (which still waits for a rerun alone on the device, see {@link MemoryPool#fixed}).
   */
  static MemorySource forDevice(ai.djl.Device device, MemoryBudget given) {
    return MemoryPool.ByDevice.PROCESS.source(device, given);
  }

  /**
   * The same budget for every evaluation, whatever it needs and however many run at once, shared
   * with no one (a single evaluation's: it has no one to wait for when rerun alone).
   */
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
