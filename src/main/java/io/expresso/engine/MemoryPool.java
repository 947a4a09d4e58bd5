package io.expresso.engine;

import ai.djl.Device;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;

/**
 * Activation memory shared by the evaluations that run at once on one memory: a worker's CPU
 * devices, the slots of one GPU, {@code eval}'s pairs side by side ({@link #of}: one pool per
 * physical device). Each leases what its passes need to keep the sizes they have under any larger
 * budget ({@link GraphModel#budgetForFullPasses}), at most the whole pool, and waits, in the order
 * the leases were asked for, while the pool cannot hold it. So each pair runs the passes it runs
 * alone (the same bits) and together they stay within the pool; a pair too large to run beside the
 * others waits until enough of them end, holding back meanwhile only the pairs that asked after it
 * (where a fixed share per evaluation would split its batches, or refuse a pair larger than the
 * share, or fewer evaluations would run throughout). A pair that ran out of the device's memory
 * anyway (the estimates are estimates) is rerun {@linkplain #leaseAlone alone}.
 */
public final class MemoryPool implements MemorySource {

  /** How often a waiting lease looks at its cancellation. */
  private static final long POLL_MILLIS = 50;

  private final long total;
  private long free;
  /** Leases granted and not yet given back (a {@link #fixed} lease holds no bytes, but counts here). */
  private int held;
  /** Whether the lease granted last is an {@linkplain #leaseAlone alone} one, still held. */
  private boolean alone;
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
   * This process's pool of {@code device}'s memory, one per physical device however many slots or
   * evaluations use it: half of the GPU's memory for a GPU, half of the machine's for the CPU (the
   * container's limit where there is one), see {@link MemoryBudget#defaultFor}. Sized on first use.
   */
  public static MemoryPool of(Device device) {
    return ByDevice.PROCESS.of(device);
  }

  /** This process's pool for the CPU ({@link #of} the CPU), shared by all its CPU evaluations. */
  public static MemoryPool cpu() {
    return of(Device.cpu());
  }

  /** The pools of a process, one per physical device, each sized by {@code size} on first use. */
  static final class ByDevice {
    /** Half of each device's memory: a process that never judges a pair on a device never sizes it. */
    static final ByDevice PROCESS = new ByDevice(d -> MemoryBudget.defaultFor(d).bytes());

    private final ToLongFunction<Device> size;
    private final Map<String, MemoryPool> pools = new ConcurrentHashMap<>();

    ByDevice(ToLongFunction<Device> size) {
      this.size = size;
    }

    MemoryPool of(Device device) {
      return pools.computeIfAbsent(Devices.name(device), k -> new MemoryPool(size.applyAsLong(device)));
    }

    /** See {@link MemorySource#forDevice}. */
    MemorySource source(Device device, MemoryBudget given) {
      MemoryPool pool = of(device);
      return given == null ? pool : pool.fixed(given);
    }
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
    long bytes = budgetFor(need);
    return acquire(bytes, bytes, false, cancelled);
  }

  /**
   * The budget {@link #lease} gives for {@code need} (so the same passes), granted once no other
   * lease of the pool is held, in the order asked, and holding the whole pool: no lease asked after
   * it is granted until it is closed. For the rerun of a pair that ran out of the device's memory
   * beside others: it then runs alone on the device.
   */
  @Override
  public Lease leaseAlone(long need, BooleanSupplier cancelled) {
    return acquire(budgetFor(need), total, true, cancelled);
  }

  /**
   * A source that gives every evaluation {@code budget}, whatever it needs (a user's {@code
   * --memory-budget}): its leases take nothing from this pool, but an {@linkplain #leaseAlone alone}
   * lease of the pool waits for them to end, and they wait for it.
   */
  public MemorySource fixed(MemoryBudget budget) {
    return new MemorySource() {
      @Override
      public Lease lease(long need, BooleanSupplier cancelled) {
        return acquire(budget.bytes(), 0, false, cancelled);
      }

      @Override
      public Lease leaseAlone(long need, BooleanSupplier cancelled) {
        return acquire(budget.bytes(), total, true, cancelled);
      }
    };
  }

  private long budgetFor(long need) {
    return Math.min(total, Math.max(1L << 20, need));
  }

  /** A lease of {@code budget} that takes {@code bytes} of the pool, alone or beside others. */
  private Lease acquire(long budget, long bytes, boolean exclusive, BooleanSupplier cancelled) {
    Object ticket = new Object();
    synchronized (this) {
      waiting.addLast(ticket);
      try {
        while (waiting.peekFirst() != ticket || (exclusive ? held > 0 : alone || free < bytes)) {
          if (cancelled.getAsBoolean()) {
            throw new CancellationException("cancelled while waiting for " + (exclusive ? "all" : new MemoryBudget(
                Math.max(1L << 20, bytes)).text()) + " of the " + new MemoryBudget(total).text() + " memory pool");
          }
          wait(POLL_MILLIS);
        }
        free -= bytes;
        held++;
        alone = exclusive;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted while waiting for " + new MemoryBudget(Math.max(1L << 20, bytes)).text()
            + " of memory");
      } finally {
        waiting.remove(ticket);
        notifyAll(); // the next oldest may now fit
      }
    }
    return new Lease(new MemoryBudget(budget), () -> giveBack(bytes));
  }

  private synchronized void giveBack(long bytes) {
    free += bytes;
    held--;
    alone = false; // an alone lease is the only one held while it is
    notifyAll();
  }
}
