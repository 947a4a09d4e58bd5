package io.expresso.engine;

import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;

/**
 * cuDNN's deterministic algorithms for this process's GPU devices, so that a seed gives the same
 * bits, and so the same verdicts, every time it runs on a GPU. Applied when the engine starts
 * ({@link NativeEngine#start}); {@link Devices#newModel}, the one maker of models, refuses a GPU model
 * where it did not take.
 *
 * <p>Measured on an H200 (docs/results/gpu-h200-brec.md): with PyTorch's default, cuDNN chose
 * algorithms that accumulate in a run-dependent order for the larger BREC graphs (25 vertices and
 * more: strongly regular, CFI, 4-vertex, distance regular), and one seed's T² differed between two
 * runs on 828 of 2000 tasks, 9 verdicts among them; 10–11-vertex graphs were identical.
 * This is PyTorch's {@code torch.backends.cudnn.deterministic = True}. DJL's JNI has no switch for
 * it, so it calls ATen's {@code at::globalContext().setDeterministicCuDNN(true)} in the loaded
 * {@code libtorch_cpu} through JNA; the symbols are C++-mangled (Itanium ABI, stable across the
 * PyTorch releases Expresso runs on: 2.7 to 2.13).
 *
 * <p>{@code -Dexpresso.gpu.deterministic=false} leaves PyTorch's default, for measuring what
 * determinism costs.
 */
public final class CudnnDeterminism {

  /** The system property that turns it off (for measurement). */
  public static final String PROPERTY = "expresso.gpu.deterministic";

  private static final String GLOBAL_CONTEXT = "_ZN2at13globalContextEv";
  private static final String SET = "_ZN2at7Context21setDeterministicCuDNNEb";
  private static final String GET = "_ZNK2at7Context18deterministicCuDNNEv";
  private static final String WAY_OUT = "; run with -D" + PROPERTY + "=false to go on without it";

  private static Boolean applied;

  private CudnnDeterminism() {}

  /**
   * Whether this process asks for it (the default), by {@link #PROPERTY}.
   *
   * @throws IllegalArgumentException if the property is neither {@code true} nor {@code false}
   */
  public static boolean wanted() {
    String v = System.getProperty(PROPERTY, "true").strip();
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + v + ": give true (the default) or false");
    }
    return v.equalsIgnoreCase("true");
  }

  /**
   * Applies the setting once, the engine loaded ({@link NativeEngine#start}); every model on a GPU
   * comes through here again ({@link Devices#newModel}), and fails with the reason it did not take.
   *
   * @return whether cuDNN now runs deterministic algorithms in this process
   * @throws IllegalStateException if it was wanted and could not be set
   */
  static synchronized boolean apply() {
    if (applied == null) {
      if (!wanted()) {
        applied = false;
      } else {
        set(true);
        applied = true;
      }
    }
    return applied;
  }

  /** What ATen's context says now: {@code torch.backends.cudnn.deterministic}. */
  public static boolean current() {
    NativeLibrary torch = torch();
    return read(torch, context(torch));
  }

  private static void set(boolean on) {
    NativeLibrary torch = torch();
    Pointer context;
    try {
      context = context(torch);
      torch.getFunction(SET).invokeVoid(new Object[] {context, on});
    } catch (UnsatisfiedLinkError e) { // a libtorch without these symbols
      throw new IllegalStateException("cannot set cuDNN's deterministic flag in " + loaded() + ": " + e.getMessage()
          + WAY_OUT, e);
    }
    if (read(torch, context) != on) {
      throw new IllegalStateException("cuDNN's deterministic flag did not take in " + loaded() + WAY_OUT);
    }
  }

  private static boolean read(NativeLibrary torch, Pointer context) {
    return (torch.getFunction(GET).invokeInt(new Object[] {context}) & 0xff) != 0; // a C++ bool: the low byte
  }

  private static Pointer context(NativeLibrary torch) {
    return torch.getFunction(GLOBAL_CONTEXT).invokePointer(new Object[0]);
  }

  private static String loaded() {
    return LoadedTorch.find().map(LoadedTorch::text).orElse("this PyTorch");
  }

  /** The loaded libtorch, opened again by path (the same handle). */
  private static NativeLibrary torch() {
    LoadedTorch torch = LoadedTorch.find().orElseThrow(() -> new IllegalStateException(
        "cannot set cuDNN's deterministic flag: no PyTorch library is mapped in this process"));
    try {
      return NativeLibrary.getInstance(torch.libtorch().toString());
    } catch (UnsatisfiedLinkError e) {
      throw new IllegalStateException("cannot open " + torch.libtorch() + " for cuDNN's deterministic flag: "
          + e.getMessage(), e);
    }
  }
}
