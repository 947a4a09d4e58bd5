// PyTorch's thread-local autograd setting that DJL does not expose, for io.expresso.engine.TorchThreadState.
//
// Built by scripts/gpu-setup against the host's own PyTorch (AutogradState's layout changes between
// releases, so it must be compiled against the headers of the libc10 it runs with), into
// libexpresso_torch_threads.so; never part of the jar.
//
// Why: PyTorch's autograd hands every backward on a CUDA device to that device's one worker thread,
// whose ready queue is ordered by a per-thread sequence number. Evaluations training side by side on
// one GPU then run their backward passes one at a time, and one whose counter is low can wait for
// minutes (docs/results/gpu-h200-leaderboard-rates.md). With multithreading disabled on a thread,
// that thread runs its own backward, as torch.autograd.set_multithreading_enabled(False) does.
#include <jni.h>

#include <c10/core/AutogradState.h>

extern "C" {

JNIEXPORT void JNICALL Java_io_expresso_engine_TorchThreadState_setBackwardOnCallingThread(
    JNIEnv*, jclass, jboolean on) {
  c10::AutogradState::get_tls_state().set_multithreading_enabled(on == JNI_FALSE);
}

JNIEXPORT jboolean JNICALL Java_io_expresso_engine_TorchThreadState_backwardOnCallingThread(JNIEnv*, jclass) {
  return c10::AutogradState::get_tls_state().get_multithreading_enabled() ? JNI_FALSE : JNI_TRUE;
}

}  // extern "C"
