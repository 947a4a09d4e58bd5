package io.expresso.engine;

import java.util.Optional;

/**
 * What {@link NativeEngine#start} set up and found in force, each value read back from the running
 * engine or the C library rather than taken from configuration: what results record.
 *
 * @param intraOpThreads PyTorch's intra-op threads ({@code torch.get_num_threads()}), the order of
 *     a CPU device's float sums
 * @param interOpThreads PyTorch's inter-op threads ({@code torch.get_num_interop_threads()})
 * @param cudnnDeterministic whether ATen's context runs cuDNN's deterministic algorithms ({@code
 *     torch.backends.cudnn.deterministic}); false where it is off by choice or could not be set (a
 *     GPU model then fails, {@link Devices#newModel})
 * @param openMp the OpenMP wait settings native code sees ({@code OMP_WAIT_POLICY}, {@code
 *     GOMP_SPINCOUNT})
 * @param allocator the C allocator's settings ({@link NativeMemory#tune})
 * @param torch the PyTorch library the loader mapped; empty where the mapped libraries cannot be
 *     read (not Linux)
 * @param startSeconds how long the start took (mostly loading the native libraries)
 */
public record EngineState(int intraOpThreads, int interOpThreads, boolean cudnnDeterministic, String openMp,
    String allocator, Optional<LoadedTorch> torch, double startSeconds) {

  /** One line for logs and {@code expresso doctor}. */
  public String text() {
    return "PyTorch " + torch.map(LoadedTorch::text).orElse("(library not found among the mapped ones)")
        + ", " + intraOpThreads + " intra-op and " + interOpThreads + " inter-op thread(s), " + openMp
        + ", cuDNN deterministic " + (cudnnDeterministic ? "on" : "off") + ", allocator: " + allocator;
  }
}
