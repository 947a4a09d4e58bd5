package io.expresso.engine;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a GPU training's backward pass runs. PyTorch's autograd hands every backward on a CUDA
 * device to that device's one worker thread, whose queue is ordered by a per-thread sequence
 * number: the evaluations training side by side on one GPU ran their backward passes one at a
 * time, and some waited minutes while the others went on (docs/results/gpu-h200-leaderboard-rates.md).
 * PyTorch's {@code torch.autograd.set_multithreading_enabled(False)}, a thread-local setting, keeps
 * a backward on the thread that called it. DJL has no call for it, so {@code scripts/gpu-setup}
 * builds one small JNI library against the host's own PyTorch ({@code src/main/native/torch_thread_state.cc})
 * and names it in {@value #LIBRARY_ENV}.
 *
 * <p>Without the library nothing changes: the CPU engine the jar bundles runs a CPU backward on its
 * calling thread anyway. {@code -D}{@value #PROPERTY}{@code =device} leaves PyTorch's default, for
 * measuring what the setting changes.
 */
public final class TorchThreadState {

  /** The environment variable naming the library ({@code scripts/gpu-setup} writes it into gpu.env). */
  public static final String LIBRARY_ENV = "EXPRESSO_TORCH_THREADS_LIB";

  /** {@code caller} (the default) or {@code device}: where a GPU backward runs. */
  public static final String PROPERTY = "expresso.gpu.backward";

  /**
   * What this process does.
   *
   * @param callerBackward whether backward passes run on their calling threads (the library loaded and wanted)
   * @param text one line for {@code expresso doctor}
   */
  public record Status(boolean callerBackward, String text) {}

  private static volatile Status status;
  private static final ThreadLocal<Boolean> KEPT = ThreadLocal.withInitial(() -> Boolean.FALSE);

  private TorchThreadState() {}

  /**
   * Keeps this thread's backward passes on this thread, where the library is loaded and the
   * setting wanted; the first call on a thread sets it, later ones cost a thread-local read.
   */
  public static void keepBackwardOnThisThread() {
    if (KEPT.get() || !status().callerBackward()) {
      return;
    }
    setBackwardOnCallingThread(true);
    KEPT.set(Boolean.TRUE);
  }

  /**
   * The process's setting, settled on first use (the engine started first, so that the library's
   * PyTorch symbols resolve to the loaded ones).
   *
   * @throws IllegalArgumentException if {@value #PROPERTY} is neither {@code caller} nor {@code device}
   */
  public static Status status() {
    Status s = status;
    return s != null ? s : settle(System.getProperty(PROPERTY, "caller"), System.getenv(LIBRARY_ENV));
  }

  /**
   * What this process asks for by {@value #PROPERTY}: {@code caller} (the default) or {@code device}.
   *
   * @throws IllegalArgumentException naming the property if it is neither
   */
  public static String wanted() {
    return checked(System.getProperty(PROPERTY, "caller"));
  }

  private static String checked(String wanted) {
    String w = wanted.strip();
    if (!w.equals("caller") && !w.equals("device")) {
      throw new IllegalArgumentException("-D" + PROPERTY + "=" + wanted + ": give caller (the default) or device");
    }
    return w;
  }

  private static synchronized Status settle(String wanted, String library) {
    if (status != null) {
      return status;
    }
    String w = checked(wanted);
    String pytorchDefault = "each GPU's backward passes on PyTorch's one autograd thread for it";
    if (library == null || library.isBlank()) {
      status = new Status(false, pytorchDefault + " (no " + LIBRARY_ENV + ": scripts/gpu-setup builds the library;"
          + " a CPU backward runs on its own thread)");
    } else if (w.equals("device")) {
      status = new Status(false, pytorchDefault + " (-D" + PROPERTY + "=device)");
    } else {
      status = load(Path.of(library.strip()), pytorchDefault);
    }
    return status;
  }

  private static Status load(Path library, String pytorchDefault) {
    if (!Files.isRegularFile(library)) {
      return new Status(false, pytorchDefault + " (" + LIBRARY_ENV + "=" + library + ": no such file; run scripts/gpu-setup)");
    }
    NativeEngine.start();
    try {
      System.load(library.toAbsolutePath().toString());
      // read back on a thread of its own, so that this thread's setting stays PyTorch's default
      boolean[] readBack = new boolean[1];
      Thread probe = new Thread(() -> {
        setBackwardOnCallingThread(true);
        readBack[0] = backwardOnCallingThread();
      }, "torch-thread-state-probe");
      probe.start();
      probe.join();
      if (!readBack[0]) {
        return new Status(false, pytorchDefault + " (" + library + " loaded, but the setting did not read back)");
      }
      return new Status(true, "each evaluation's backward passes on its own thread (" + library + ")");
    } catch (UnsatisfiedLinkError e) {
      return new Status(false, pytorchDefault + " (" + library + " did not load: " + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Status(false, pytorchDefault + " (interrupted while loading " + library + ")");
    }
  }

  /** Settles the status again (tests only: the library and property are read once per process). */
  static synchronized Status settleForTest(String wanted, String library) {
    status = null;
    return settle(wanted, library);
  }

  private static native void setBackwardOnCallingThread(boolean on);

  private static native boolean backwardOnCallingThread();
}
