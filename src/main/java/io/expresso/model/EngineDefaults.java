package io.expresso.model;

/**
 * DJL engine settings applied before DJL loads, each only if the user has not set it:
 *
 * <ul>
 *   <li>{@code ai.djl.offline=true}: the native library comes from Maven Central; nothing is
 *       downloaded at run time.
 *   <li>{@code ai.djl.pytorch.num_threads=1}: one intra-op thread per evaluation. A worker runs one
 *       CPU device per core, so its parallelism comes from evaluations side by side, with no
 *       OpenMP barrier between them, which is fast on an idle machine and a loaded one alike. For
 *       one pair at a time on an idle 2-core machine, two threads made 50–96-vertex CFI pairs 1.5×
 *       faster and, with a short spin before OpenMP's threads sleep ({@code GOMP_SPINCOUNT=30000}),
 *       a strongly regular epoch 1.36× faster; under load the spin made it 2× slower
 *       (docs/results/brec-cpu-side-by-side.md). One thread also gives the same bits on every
 *       machine whatever its core count (the order of float sums follows the thread count). Set
 *       the property for more.
 *   <li>{@code OMP_WAIT_POLICY=PASSIVE} in the native environment: idle OpenMP threads sleep rather
 *       than spin. Spinning threads took the cores the working ones needed whenever anything else
 *       ran on the machine: two threads made pairs 10–100× slower on a shared 2-core machine
 *       (docs/gnn-evaluation.md); passive, two threads were as fast as one under the same load
 *       (docs/results/brec-cpu-side-by-side.md).
 *   <li>GPU arithmetic in full fp32 ({@code NVIDIA_TF32_OVERRIDE=0} in the native environment, see
 *       {@link GpuPrecision}), unless a command chose tf32.
 * </ul>
 */
public final class EngineDefaults {

  private static final String THREADS = "ai.djl.pytorch.num_threads";
  private static final String OMP_WAIT_POLICY = "OMP_WAIT_POLICY";

  private EngineDefaults() {}

  /** Applies the defaults; call before the first DJL class loads (CLI start, model creation). */
  public static synchronized void apply() {
    setIfAbsent("ai.djl.offline", "true");
    setIfAbsent(THREADS, "1");
    if (NativeEnvironment.get(OMP_WAIT_POLICY) == null) {
      try {
        NativeEnvironment.set(OMP_WAIT_POLICY, "PASSIVE");
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
      int n = v == null ? 1 : Integer.parseInt(v.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw new IllegalArgumentException(THREADS + " must be a whole number of threads above 0, not '" + v + "'");
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
