package io.expresso.engine;

import ai.djl.pytorch.jni.JniUtils;
import java.util.Optional;

/**
 * The native engine, entered once: {@link #start} sets up everything DJL's PyTorch engine and the
 * libraries under it read once, in the order they read it, loads the engine, and returns what is in
 * force ({@link EngineState}). Every way into the engine comes through here: the one maker of
 * models ({@link Devices#newModel}), the engine's seeding ({@link EngineSeeds}) and the device check
 * call it, and commands that report the engine (eval, worker, doctor) call it at their start, so
 * that its one-off cost (about 0.7 s of native libraries) is theirs and not their first task's.
 *
 * <p>The order matters. DJL reads its settings once, in {@code PtEngine.newInstance()} (DJL 0.36):
 * the system properties {@code ai.djl.offline}, {@code ai.djl.pytorch.num_threads} and {@code
 * ai.djl.pytorch.num_interop_threads}, then loads libtorch; libgomp reads {@code OMP_WAIT_POLICY}
 * and {@code GOMP_SPINCOUNT} when it is loaded; cuBLAS and cuDNN read {@code NVIDIA_TF32_OVERRIDE}
 * when they initialise. So before the engine loads:
 *
 * <ul>
 *   <li>{@code ai.djl.offline=true}: the native library is the one the jar bundles; nothing is
 *       downloaded at run time.
 *   <li>{@code ai.djl.pytorch.num_threads}: the count {@link ThreadPolicy} decides (DJL reads only
 *       the property; a count given as an environment variable is copied into it).
 *   <li>{@code OMP_WAIT_POLICY=PASSIVE} with {@code GOMP_SPINCOUNT=30000} in the native environment
 *       unless the user set either: an idle OpenMP thread spins briefly (tens of microseconds), then
 *       sleeps. Without the spin every parallel region woke a sleeping thread and two threads gained
 *       nothing; spinning without end took the cores the working threads needed whenever anything
 *       else ran (pairs 10-100x slower on a shared 2-core machine, docs/gnn-evaluation.md).
 *   <li>GPU arithmetic in full fp32 ({@code NVIDIA_TF32_OVERRIDE=0}, {@link GpuPrecision}) unless a
 *       command chose tf32; the first GPU device fixes it.
 *   <li>the allocator's settings ({@link NativeMemory#tune}).
 * </ul>
 *
 * <p>After it loads: the intra-op threads are read back and, where the engine was loaded before
 * this ran (a test that touched DJL first), set; cuDNN's deterministic algorithms are switched on
 * ({@link CudnnDeterminism}).
 */
public final class NativeEngine {

  static final String ENGINE = "PyTorch";
  private static final String OMP_WAIT_POLICY = "OMP_WAIT_POLICY";
  private static final String GOMP_SPINCOUNT = "GOMP_SPINCOUNT";

  private static volatile EngineState state;

  private NativeEngine() {}

  /**
   * Starts the engine if this process has not yet, and returns what is in force (the same record
   * on every later call).
   *
   * @throws IllegalArgumentException if the thread count is not a whole number above 0
   * @throws IllegalStateException if the engine does not run the threads asked for
   * @throws ai.djl.engine.EngineException if the native libraries do not load
   */
  public static EngineState start() {
    EngineState s = state;
    return s != null ? s : startOnce();
  }

  /** What {@link #start} found, if the engine was started; never starts it. */
  public static Optional<EngineState> started() {
    return Optional.ofNullable(state);
  }

  private static synchronized EngineState startOnce() {
    if (state != null) {
      return state;
    }
    long begin = System.nanoTime();
    int threads = ThreadPolicy.intraOpThreads();
    if (System.getProperty("ai.djl.offline") == null) { // DJL_OFFLINE in the environment, if set, goes first
      System.setProperty("ai.djl.offline", "true");
    }
    System.setProperty(ThreadPolicy.PROPERTY, Integer.toString(threads));
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
    String allocator = NativeMemory.tune();
    ai.djl.engine.Engine.getEngine(ENGINE); // PtEngine.newInstance: loads libtorch, applies the properties
    if (JniUtils.getNumThreads() != threads) { // loaded before this ran, without the property
      JniUtils.setNumThreads(threads);
    }
    int running = JniUtils.getNumThreads();
    if (running != threads) {
      throw new IllegalStateException("PyTorch runs " + running + " intra-op threads where " + threads + " were set ("
          + ThreadPolicy.PROPERTY + ")");
    }
    boolean deterministic;
    try {
      deterministic = CudnnDeterminism.apply();
    } catch (IllegalStateException e) {
      deterministic = false; // a CPU engine goes on; a model on a GPU fails with this reason (Devices.newModel)
    }
    String openMp = OMP_WAIT_POLICY + "=" + Optional.ofNullable(NativeEnvironment.get(OMP_WAIT_POLICY)).orElse("(unset)")
        + ", " + GOMP_SPINCOUNT + "=" + Optional.ofNullable(NativeEnvironment.get(GOMP_SPINCOUNT)).orElse("(unset)");
    state = new EngineState(running, JniUtils.getNumInteropThreads(), deterministic, openMp, allocator,
        LoadedTorch.find(), (System.nanoTime() - begin) / 1e9);
    return state;
  }
}
