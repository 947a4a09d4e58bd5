package io.expresso.engine;

import ai.djl.ndarray.NDArray;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.GradientCollector;

/**
 * Records gradients on the calling thread only. PyTorch's grad mode is thread-local, so trainings
 * on different threads (several evaluations sharing one GPU or CPU in a worker) each record their
 * own graph; DJL's {@code PtGradientCollector} instead refuses a second collector anywhere in the
 * process (one static flag), which would serialise them. Gradients accumulate into the parameters'
 * own gradient arrays, as with DJL's collector; zeroing them is the model's job.
 */
public final class ThreadGradients implements GradientCollector {

  private final boolean wasRecording;

  public ThreadGradients() {
    TorchThreadState.keepBackwardOnThisThread(); // a GPU backward on this thread too, not PyTorch's one per device
    wasRecording = JniUtils.isGradMode();
    JniUtils.setGradMode(true);
  }

  @Override
  public void backward(NDArray target) {
    try (NDArray seed = target.onesLike()) {
      JniUtils.backward((PtNDArray) target, (PtNDArray) seed, false, false);
    }
  }

  /** Not offered: DJL's version zeroes every gradient in the process, other threads' included. */
  @Override
  public void zeroGradients() {
    throw new UnsupportedOperationException("zero a model's gradients with GraphModel.zeroGradients");
  }

  @Override
  public void close() {
    if (!wasRecording) {
      JniUtils.setGradMode(false);
    }
  }
}
