package io.expresso.model;

/**
 * DJL engine settings applied before DJL loads, each only if the user has not set it:
 *
 * <ul>
 *   <li>{@code ai.djl.offline=true}: the native library comes from Maven Central; nothing is
 *       downloaded at run time.
 *   <li>{@code ai.djl.pytorch.num_threads=1}: one intra-op thread. Expressiveness graphs are small
 *       (10–200 vertices), so per-op parallelism buys little, and on a shared CPU OpenMP barriers
 *       waiting for descheduled threads made pairs 10–100× slower in our measurements
 *       (docs/gnn-evaluation.md). Parallelism comes from more workers instead; set the property to
 *       use more threads per op on a dedicated machine.
 *   <li>GPU arithmetic in full fp32 ({@code NVIDIA_TF32_OVERRIDE=0} in the native environment, see
 *       {@link GpuPrecision}), unless a command chose tf32.
 * </ul>
 */
public final class EngineDefaults {

  private EngineDefaults() {}

  /** Applies the defaults; call before the first DJL class loads (CLI start, model creation). */
  public static void apply() {
    setIfAbsent("ai.djl.offline", "true");
    setIfAbsent("ai.djl.pytorch.num_threads", "1");
    GpuPrecision.prepare();
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null && System.getenv(key) == null) {
      System.setProperty(key, value);
    }
  }
}
