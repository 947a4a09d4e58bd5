package io.expresso.engine;

/**
 * How this process spends its cores, decided here and nowhere else: the intra-op threads the
 * engine runs with, how many evaluations {@code eval} runs at once, and how many CPU devices a
 * worker's {@code --devices auto} makes. What actually ran is {@link EngineState#intraOpThreads()},
 * read back from the started engine; results record that.
 *
 * <ul>
 *   <li><b>Two intra-op threads per evaluation</b> (1 on a one-core machine), unless {@code
 *       -Dai.djl.pytorch.num_threads=N} (or an environment variable of that name) says otherwise.
 *       Measured on a 2-core machine, BREC's Regular pairs 60-159 under PPGN: one pair at a time on
 *       two threads judged a pair in 0.22-0.23 s (median) against 0.35-0.45 s for two pairs side by
 *       side on one thread each, and all 100 pairs in less time too
 *       (docs/results/brec-cpu-side-by-side.md). The count is fixed rather than the machine's, so
 *       that results carry the same bits on every machine (the order of float sums follows the
 *       thread count, not the core count).
 *   <li><b>eval: one pair per two cores</b> ({@link #evaluationsPerMachine}): every core busy,
 *       none shared.
 *   <li><b>worker: one CPU device per core</b> ({@link #cpuDevices}): its tasks are of many kinds,
 *       many of them Java-bound, and both its demo (28 s against 35-38 s) and 100 PPGN pair tasks
 *       (58 s against 69 s) were faster on two devices of two threads than on one.
 * </ul>
 *
 * <p>DJL 0.36 reads only the system property ({@code Integer.getInteger} in {@code
 * PtEngine.newInstance}), never the environment variable; {@link NativeEngine#start} therefore
 * puts the count resolved here into the property before the engine loads, and checks it in force
 * after.
 */
public final class ThreadPolicy {

  /** DJL's system property for the intra-op threads, read once when its PyTorch engine loads. */
  public static final String PROPERTY = "ai.djl.pytorch.num_threads";
  /** Intra-op threads per evaluation unless set (fewer only on a machine with fewer cores). */
  static final int DEFAULT_THREADS = 2;

  private ThreadPolicy() {}

  /**
   * The intra-op threads the engine is to run with: the system property, else the environment
   * variable of the same name, else {@link #DEFAULT_THREADS} (the cores where fewer).
   *
   * @throws IllegalArgumentException if the property or variable is not a whole number above 0
   */
  public static int intraOpThreads() {
    String v = System.getProperty(PROPERTY, System.getenv(PROPERTY));
    try {
      int n = v == null ? defaultThreads() : Integer.parseInt(v.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw new IllegalArgumentException(PROPERTY + " must be a whole number of threads above 0, not '" + v + "'");
  }

  /** {@link #DEFAULT_THREADS}, or the cores where a machine has fewer. */
  static int defaultThreads() {
    return Math.max(1, Math.min(DEFAULT_THREADS, cores()));
  }

  /**
   * Evaluations at once that keep every core busy without sharing one, each on {@code threads}
   * intra-op threads: eval's default pairs at once, and the cores its pairs share for embedding.
   */
  public static int evaluationsPerMachine(int threads) {
    return Math.max(1, cores() / Math.max(1, threads));
  }

  /** A worker's CPU devices under {@code --devices auto}: one per core. */
  public static int cpuDevices() {
    return Math.max(1, cores());
  }

  private static int cores() {
    return Runtime.getRuntime().availableProcessors();
  }
}
