package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.runtime.Versions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DoctorCommandTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @Test
  void saysWhatAWorkerHereRunsOnAndRunsAProductOnEachDevice() {
    assertThat(Main.execute("doctor", "--devices", "cpu:2")).isZero();
    String out = console.out();
    assertThat(out).contains("worker devices (cpu:2): cpu:0 cpu:1")
        .contains("GPU precision: fp32 (NVIDIA_TF32_OVERRIDE=0 in this process")
        .contains("PYTORCH_LIBRARY_PATH=")
        // two threads per evaluation on this 2-core machine, idle OpenMP threads spin briefly then sleep
        // (NativeEngine), and the arenas line says what the launcher sets
        .containsPattern("CPU: " + Math.min(2, Runtime.getRuntime().availableProcessors())
            + " intra-op thread\\(s\\) per evaluation, OMP_WAIT_POLICY=PASSIVE, GOMP_SPINCOUNT=30000, MALLOC_ARENA_MAX=")
        .containsPattern("CPU memory: a pool of [0-9.]+ (GiB|MiB) \\(half of the machine's or the container's\\) shared by the CPU devices");
    // the CPU devices share one DJL device: one product, accurate to fp32
    assertThat(out.lines().filter(l -> l.startsWith("device cpu: a 256-square float32 product"))).hasSize(1);
    double error = Double.parseDouble(out.replaceAll("(?s).*max relative error ([0-9.eE+-]+) against exact.*", "$1"));
    assertThat(error).isLessThan(1e-5);
    // what loaded: the jar's bundled CPU library, found among the mapped libraries, and its JNI
    assertThat(out).contains("PyTorch loaded: " + Versions.bundledPytorch() + ", flavour cpu, ")
        .containsPattern("DJL JNI loaded: /\\S+libdjl_torch\\.so");
  }

  @Test
  void aGpuThatCannotComputeFailsTheCheckWithTheReason() {
    // this CI machine has no GPU (and the bundled PyTorch is CPU-only): the doctor must say so, not pass
    assertThat(Main.execute("doctor", "--devices", "gpu:0x2")).isEqualTo(1);
    assertThat(console.out()).contains("worker devices (gpu:0x2): gpu:0/0 gpu:0/1").contains("device gpu:0: FAILED: ");
  }
}
