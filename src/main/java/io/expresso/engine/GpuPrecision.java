package io.expresso.engine;

/**
 * The one place GPU arithmetic precision is chosen and applied for this process.
 *
 * <p>Full fp32 ({@link Precision#FP32}) is applied by setting {@code NVIDIA_TF32_OVERRIDE=0} in
 * the native environment: cuBLAS and cuDNN read it when they initialise and then never use TF32,
 * whatever PyTorch's flags say, for built-in models and TorchScript modules alike. DJL's JNI exposes
 * no TF32 switch of its own, and Java cannot change the environment it was started with, hence libc
 * ({@link NativeEnvironment}). {@link Precision#TF32} removes the variable, leaving PyTorch's
 * defaults (TF32 in cuDNN convolutions).
 *
 * <p>The environment is written when the engine starts (before PyTorch loads, {@link
 * NativeEngine#start}) and again when a command chooses a precision; the first GPU device ({@link Devices#gpu})
 * fixes it, since CUDA's libraries may have read it from then on.
 */
public final class GpuPrecision {

  /** Read by cuBLAS and cuDNN at initialisation; {@code 0} disables TF32 in both. */
  public static final String OVERRIDE = "NVIDIA_TF32_OVERRIDE";

  private static Precision chosen = Precision.FP32;
  private static boolean fixed;
  private static boolean prepared;

  private GpuPrecision() {}

  /**
   * Chooses this process's GPU precision.
   *
   * @throws IllegalStateException if a GPU device already exists at another precision
   */
  public static synchronized void choose(Precision precision) {
    if (fixed && precision != chosen) {
      throw new IllegalStateException("GPU precision is already " + chosen.label() + " in this process (a GPU device"
          + " exists); choose " + precision.label() + " before the first GPU device is created");
    }
    chosen = precision;
    write();
  }

  /**
   * Writes the chosen precision (fp32 unless chosen otherwise) to the native environment once,
   * best effort. Once only: setenv while other threads' native code reads the environment is a
   * race in glibc, and this is called per task.
   */
  static synchronized void prepare() {
    if (!fixed && !prepared) {
      prepared = true;
      try {
        write();
      } catch (IllegalStateException e) {
        // no C library to write with: Devices.gpu fails with this message if a GPU is asked for
      }
    }
  }

  /**
   * Applies and fixes the precision for a GPU device about to be created; every GPU device of
   * this process comes through here.
   *
   * @throws IllegalStateException if the environment cannot be written (then no GPU device exists)
   */
  static synchronized Precision forGpu() {
    if (!fixed) {
      write();
      fixed = true;
    }
    return chosen;
  }

  /** The precision this process's GPU devices run at. */
  public static synchronized Precision current() {
    return chosen;
  }

  /** The precision of {@code device}: the process's choice on a GPU, fp32 on the CPU. */
  public static Precision of(ai.djl.Device device) {
    return device.isGpu() ? current() : Precision.FP32;
  }

  private static void write() {
    if (chosen == Precision.FP32) {
      NativeEnvironment.set(OVERRIDE, "0");
    } else if (NativeEnvironment.get(OVERRIDE) != null) {
      NativeEnvironment.unset(OVERRIDE);
    }
  }
}
