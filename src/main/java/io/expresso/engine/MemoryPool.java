package io.expresso.engine;

import java.util.ArrayDeque;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Activation memory shared by the evaluations that run at once on one memory (a worker's CPU
 * devices, {@code eval}'s pairs side by side). Each leases what its passes need to keep the sizes
 * they have under any larger budget ({@link GraphModel#budgetForFullPasses}), at most the whole
 * pool, and waits, in the order the leases were asked for, while the pool cannot hold it. So each
 * pair runs the passes it runs alone (the same bits) and together they stay within the pool; a pair
 * too large to run beside the others waits until enough of them end, holding back meanwhile only
 * the pairs that asked after it (where a fixed share per evaluation would split its batches, or
 * fewer evaluations would run throughout).
 */
public final class MemoryPool implements MemorySource {

  /** How often a waiting lease looks at its cancellation. */
  private static final long POLL_MILLIS = 50;

  private final long total;
  private long free;
  /** Leases not yet granted, oldest first: only the oldest may take memory (no starving a large one). */
  private final ArrayDeque<Object> waiting = new ArrayDeque<>();

  /** A pool of {@code total} bytes (at least 1 MiB: the least budget). */
  public MemoryPool(long total) {
    if (total < (1L << 20)) {
      throw new IllegalArgumentException("a memory pool needs at least 1 MiB, got " + total + " bytes");
    }
    this.total = total;
    this.free = total;
  }

  /**
   * This process's pool for the CPU: half of the machine's memory (the container's limit where
   * there is one, see {@link MemoryBudget#defaultFor}), shared by all its CPU evaluations.
   */
  public static MemoryPool cpu() {
    return Cpu.POOL;
  }

  /** Made on first use: a process that never judges a pair on the CPU never sizes one. */
  private static final class Cpu {
    static final MemoryPool POOL = new MemoryPool(MemoryBudget.defaultFor(ai.djl.Device.cpu(), 1).bytes());
  }

  /** The pool's size in bytes. */
  public long total() {
    return total;
  }

  /** Bytes not leased now. */
  public synchronized long free() {
    return free;
  }

  /** Leases asked for and not yet granted: pairs waiting for memory. */
  public synchronized int waiting() {
    return waiting.size();
  }

  /**
   * Leases {@code need} bytes, or the whole pool where it needs more (its passes then split as under
   * any budget that size), or 1 MiB where it needs less; waits while the pool cannot hold it or an
   * earlier lease still waits.
   *
   * @throws CancellationException once {@code cancelled} is true (or the thread is interrupted) while
   *     waiting; nothing is leased then
   */
  @Override
  public Lease lease(long need, BooleanSupplier cancelled) {
    long bytes = Math.min(total, Math.max(1L << 20, need));
    Object ticket = new Object();
    synchronized (this) {
      waiting.addLast(ticket);
      try {
        while (waiting.peekFirst() != ticket || free < bytes) {
          if (cancelled.getAsBoolean()) {
            throw new CancellationException("cancelled while waiting for " + new MemoryBudget(bytes).text()
                + " of the " + new MemoryBudget(total).text() + " memory pool");
          }
          wait(POLL_MILLIS);
        }
        free -= bytes;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted while waiting for " + new MemoryBudget(bytes).text() + " of memory");
      } finally {
        waiting.remove(ticket);
        notifyAll(); // the next oldest may now fit
      }
    }
    return new Lease(new MemoryBudget(bytes), () -> giveBack(bytes));
  }

  private synchronized void giveBack(long bytes) {
    free += bytes;
    notifyAll();
  }
}
