package io.expresso.engine;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;

/**
 * Keeps native tensor memory cheap to reuse and bounded. PyTorch's CPU tensors come from glibc's
 * malloc. Left to its defaults, glibc hands the pages of every freed pass back to the system
 * (madvise of the arena's top, the dynamic mmap threshold) and the next pass faults them in
 * again: on BREC's 10-vertex pairs a third of a pair's CPU time went to page faults, madvise and
 * an explicit trim after every pair. So tensors up to glibc's largest mmap threshold (32 MiB) stay
 * in the arena and freed pages are kept ({@code mallopt}); what a run of pairs of other sizes
 * leaves behind is given back by {@link #releaseIfGrown()} only once the resident size has grown
 * by {@link #SLACK_BYTES} since the last trim (2.4 to 5.5 GiB over BREC's CFI pairs before any
 * trim at all; a trim per model cost 20 ms of every 10-vertex pair, and a pair of 29–35-vertex
 * strongly regular graphs, which grows the resident size by 250–600 MiB, faulted all of it in
 * again after each trim).
 */
public final class NativeMemory {

  /** Growth of the resident size since the last trim that makes the next trim pay. */
  static final long SLACK_BYTES = 1L << 30;

  private static final int M_TRIM_THRESHOLD = -1;
  private static final int M_MMAP_THRESHOLD = -3;
  /** glibc's largest mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX): larger blocks are mmapped. */
  private static final int MMAP_THRESHOLD = 32 << 20;
  /** Free memory at the arena's top kept rather than given back by every free. */
  private static final int TRIM_THRESHOLD = 1 << 30;

  private interface C extends Library {
    int malloc_trim(long pad);

    int mallopt(int param, int value);
  }

  private static final C LIBC = load();
  private static long residentAfterTrim = PeakRss.current();
  private static String settings;
  /** Whether {@link #tune} found glibc (mallopt took): only then is there a malloc_trim to call. */
  private static volatile boolean glibc;

  private NativeMemory() {}

  private static C load() {
    if (!Platform.isLinux()) {
      return null;
    }
    try {
      return Native.load("c", C.class);
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return null; // no C library through JNA: nothing to tune or trim with
    }
  }

  /**
   * Applies the allocator settings once, before the engine's first tensor ({@link
   * NativeEngine#start}); returns what is in force, e.g. {@code glibc: mmap threshold 32 MiB, trim
   * threshold 1 GiB, MALLOC_ARENA_MAX=1}.
   *
   * <p>The arena count is not among them: glibc fixes its limit when the process's ninth arena is
   * made, and a JVM has made 15-16 (2 cores) before {@code main} runs, so {@code
   * mallopt(M_ARENA_MAX, 1)} from Java leaves every later thread on the per-thread arenas
   * (measured: 16 arenas after 16 threads malloc, with or without it; 1 with {@code
   * MALLOC_ARENA_MAX=1} in the environment). Only the environment at start sets it:
   * scripts/expresso and the images do; docs/gnn-evaluation.md says what {@code java -jar}
   * without it costs.
   */
  static synchronized String tune() {
    if (settings == null) {
      String arenas = "MALLOC_ARENA_MAX=" + java.util.Optional.ofNullable(System.getenv("MALLOC_ARENA_MAX"))
          .orElse("unset (per-thread arenas)");
      boolean tuned = false;
      if (LIBC != null) {
        try {
          tuned = LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 & LIBC.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1;
        } catch (UnsatisfiedLinkError | RuntimeException e) {
          // not glibc (e.g. musl): no mallopt
        }
      }
      glibc = tuned;
      settings = tuned ? "glibc: mmap threshold " + (MMAP_THRESHOLD >> 20) + " MiB, trim threshold "
          + (TRIM_THRESHOLD >> 30) + " GiB, " + arenas : "the C library's defaults (no glibc mallopt)";
    }
    return settings;
  }

  /** Returns free heap memory to the system where the C library can (glibc); a no-op elsewhere. */
  public static synchronized void release() {
    if (glibc) {
      LIBC.malloc_trim(0);
      residentAfterTrim = PeakRss.current();
    }
  }

  /**
   * {@link #release()} if the resident size grew by more than {@link #SLACK_BYTES} since the last
   * trim (or the size cannot be read); true if it trimmed.
   */
  public static synchronized boolean releaseIfGrown() {
    long now = PeakRss.current();
    if (!glibc || (now >= 0 && residentAfterTrim >= 0 && now - residentAfterTrim <= SLACK_BYTES)) {
      return false;
    }
    release();
    return true;
  }
}
