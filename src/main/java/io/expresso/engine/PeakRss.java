package io.expresso.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process's peak resident memory while a piece of work runs (native tensors included, which
 * the JVM's heap figures miss). One daemon thread samples {@code VmRSS} in {@code /proc/self/status} every 20 ms
 * for all open watches; where that file does not exist (not Linux) a watch reports -1. The figure
 * is the whole process's: work running beside the watched one on other devices counts too.
 */
public final class PeakRss implements AutoCloseable {

  private static final Path STATUS = Path.of("/proc/self/status");
  private static final boolean AVAILABLE = Files.isReadable(STATUS);
  private static final Set<PeakRss> OPEN = ConcurrentHashMap.newKeySet();
  private static final ScheduledExecutorService SAMPLER = AVAILABLE ? sampler() : null;

  private final AtomicLong peak = new AtomicLong(-1);

  private PeakRss() {}

  /** Starts watching. */
  public static PeakRss watch() {
    PeakRss w = new PeakRss();
    if (AVAILABLE) {
      w.peak.accumulateAndGet(current(), Math::max);
      OPEN.add(w);
    }
    return w;
  }

  /** The highest resident size seen since {@link #watch()}, in bytes; -1 where unknown. */
  public long peakBytes() {
    if (AVAILABLE) {
      peak.accumulateAndGet(current(), Math::max);
    }
    return peak.get();
  }

  /** The resident size now, in bytes; -1 where unknown. */
  public static long current() {
    if (!AVAILABLE) {
      return -1;
    }
    try {
      for (String line : Files.readAllLines(STATUS)) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.substring(6).replace("kB", "").strip()) * 1024;
        }
      }
      return -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    peakBytes();
    OPEN.remove(this);
  }

  private static ScheduledExecutorService sampler() {
    ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "expresso-peak-rss");
      t.setDaemon(true);
      return t;
    });
    s.scheduleAtFixedRate(() -> {
      if (!OPEN.isEmpty()) {
        long now = current();
        OPEN.forEach(w -> w.peak.accumulateAndGet(now, Math::max));
      }
    }, 20, 20, TimeUnit.MILLISECONDS);
    return s;
  }
}
