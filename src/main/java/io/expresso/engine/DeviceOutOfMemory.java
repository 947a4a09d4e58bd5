package io.expresso.engine;

import ai.djl.engine.EngineException;

/**
 * A pass ran out of the device's memory: PyTorch's {@code CUDA out of memory}, which DJL raises as
 * an {@link EngineException}. Where evaluations share a GPU it is a transient lack of room, not a
 * verdict on the pair: the pair is rerun alone on the device (see {@link MemorySource#leaseAlone}).
 * This exception is that error with what the evaluation's passes were estimated to need.
 */
public final class DeviceOutOfMemory extends RuntimeException {

  /** How PyTorch's out-of-memory error begins ({@code c10::OutOfMemoryError} on CUDA). */
  static final String CUDA = "CUDA out of memory";
  /** The most causes looked through (a cycle of causes ends there too). */
  private static final int DEPTH = 16;

  private DeviceOutOfMemory(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether {@code t}, or one of its causes, is the engine's out-of-memory error. */
  public static boolean causedBy(Throwable t) {
    return engineError(t) != null;
  }

  /**
   * {@code e} (which {@link #causedBy} recognised) with what the evaluation's passes were
   * estimated to need: {@code need} bytes, leased as {@code budget}, in training passes of {@code
   * trainingGraphs} graphs and embedding passes of {@code inferenceGraphs}.
   */
  public static DeviceOutOfMemory of(Throwable e, long need, MemoryBudget budget, int trainingGraphs,
      int inferenceGraphs) {
    if (e instanceof DeviceOutOfMemory d) {
      return d;
    }
    Throwable engine = engineError(e);
    return new DeviceOutOfMemory("its passes were estimated to need "
        + (need == Long.MAX_VALUE ? "more than any budget" : new MemoryBudget(Math.max(1L << 20, need)).text())
        + " of activations, run under a budget of " + budget.text() + " in training passes of " + trainingGraphs
        + " graphs and embedding passes of " + inferenceGraphs + "; the engine: "
        + (engine == null ? String.valueOf(e.getMessage()) : engine.getMessage()), e);
  }

  private static Throwable engineError(Throwable t) {
    Throwable c = t;
    for (int i = 0; c != null && i < DEPTH; i++, c = c.getCause()) {
      if (c instanceof EngineException && c.getMessage() != null && c.getMessage().startsWith(CUDA)) {
        return c;
      }
    }
    return null;
  }
}
