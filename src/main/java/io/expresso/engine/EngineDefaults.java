package io.expresso.engine;

/**
 * DJL engine settings applied before DJL loads, each only if the user has not set it:
 *
 * <ul>
 *   <li>{@code ai.djl.offline=true}: the native library comes from Maven Central; nothing is
 *       downloaded at run time.
 *   <li>{@code ai.djl.pytorch.num_threads=2} (1 on a one-core machine): two intra-op threads per
 *       evaluation, and eval judges one pair per two cores at once. Measured on a 2-core machine,
 *       BREC's Regular pairs 60-159 under PPGN: one pair at a time on two threads judged a pair in
 *       0.22-0.23 s (median) against 0.35-0.45 s for two pairs side by side on one thread each, and
 *       all 100 pairs in less time too (docs/results/brec-cpu-side-by-side.md). A worker keeps one
 *       CPU device per core: its tasks are of many kinds, many of them Java-bound, and both its demo
 *       (28 s against 35-38 s) and 100 PPGN pair tasks (58 s against 69 s) were faster on two devices
 *       of two threads than on one.
 *       The count is fixed rather than the machine's, so that results carry the same bits on every
 *       machine (the order of float sums follows the thread count, not the core count); results
 *       record it. Set the property for another count.
 *   <li>{@code OMP_WAIT_POLICY=PASSIVE} with {@code GOMP_SPINCOUNT=30000} in the native environment:
 *       an idle OpenMP thread spins briefly (tens of microseconds), then sleeps. Without the spin
 *       every parallel region woke a sleeping thread and two threads gained nothing; spinning without
 *       end took the cores the working threads needed whenever anything else ran (pairs 10-100x
 *       slower on a shared 2-core machine, docs/gnn-evaluation.md). OpenMP shortens the spin by
 *       itself when this process has more OpenMP threads than cores.
 *   <li>GPU arithmetic in full fp32 ({@code NVIDIA_TF32_OVERRIDE=0} in the native environment, see
 *       {@link GpuPrecision}), unless a command chose tf32.
 * </ul>
 */
public final class EngineDefaults {

  private static final String THREADS = "ai.djl.pytorch.num_threads";
  private static final String OMP_WAIT_POLICY = "OMP_WAIT_POLICY";
  private static final String GOMP_SPINCOUNT = "GOMP_SPINCOUNT";
  /** Intra-op threads per evaluation unless set (fewer only on a machine with fewer cores). */
  static final int DEFAULT_THREADS = 2;

  private EngineDefaults() {}

  /** Applies the defaults; call before the first DJL class loads (CLI start, model creation). */
  public static synchronized void apply() {
    setIfAbsent("ai.djl.offline", "true");
    setIfAbsent(THREADS, Integer.toString(defaultThreads()));
    // a user's own OpenMP settings stay as they are
    if (NativeEnvironment.get(OMP_WAIT_POLICY) == null && NativeEnvironment.get(GOMP_SPINCOUNT) == null) {
      try {
        NativeEnvironment.set(OMP_WAIT_POLICY, "PASSIVE");
        NativeEnvironment.set(GOMP_SPINCOUNT, "30000");
      } catch (IllegalStateException e) {
        // no C library through JNA: OpenMP keeps its own default; nothing else depends on it
      }
    }
    GpuPrecision.prepare();
  }

  /** The intra-op threads DJL's engine is given when it loads (its configuration, before it runs). */
  public static int intraOpThreads() {
    String v = System.getProperty(THREADS, System.getenv(THREADS));
    try {
      int n = v == null ? defaultThreads() : Integer.parseInt(v.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw new IllegalArgumentException(THREADS + " must be a whole number of threads above 0, not '" + v + "'");
  }

  /** {@link #DEFAULT_THREADS}, or the cores where a machine has fewer. */
  static int defaultThreads() {
    return Math.max(1, Math.min(DEFAULT_THREADS, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * Evaluations at once that keep every core busy without sharing one: the cores divided by the
   * threads each evaluation runs (eval's default pairs at once).
   */
  public static int evaluationsPerMachine() {
    return Math.max(1, Runtime.getRuntime().availableProcessors() / intraOpThreads());
  }

  /** The intra-op threads of the running engine (loads it): what a result was computed with. */
  public static int engineThreads() {
    return ai.djl.pytorch.jni.JniUtils.getNumThreads();
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null && System.getenv(key) == null) {
      System.setProperty(key, value);
    }
  }
}
