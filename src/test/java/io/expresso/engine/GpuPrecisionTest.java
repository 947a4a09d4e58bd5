package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * GPU devices cannot exist without the precision applied: checked without a GPU, in fresh JVMs
 * started with {@code NVIDIA_TF32_OVERRIDE=1}, by reading the native environment (what cuBLAS and
 * cuDNN read) after a GPU device is made the ways Expresso makes them.
 */
class GpuPrecisionTest {

  private static Map<String, String> probe(String mode, String... jvmOptions) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of(
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java", "-Dai.djl.offline=true"));
    command.addAll(List.of(jvmOptions));
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), GpuPrecisionProbe.class.getName(), mode));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put(GpuPrecision.OVERRIDE, "1");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    Map<String, String> lines = new TreeMap<>();
    for (String line : out.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        lines.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return lines;
  }

  @Test
  void aGpuDeviceTurnsTf32OffInTheNativeEnvironmentByDefault() throws Exception {
    Map<String, String> p = probe("default");
    assertThat(p.get("start")).isEqualTo("1"); // inherited: TF32 forced on
    assertThat(p.get("after-cpu")).isEqualTo("1"); // a CPU device needs nothing
    assertThat(p.get("gpu")).isEqualTo("true 1");
    assertThat(p.get("after-gpu")).isEqualTo("0");
    assertThat(p.get("precision")).isEqualTo("fp32");
    assertThat(p.get("switch")).contains("already fp32").contains("before the first GPU device");
    assertThat(p.get("end")).isEqualTo("0");
  }

  @Test
  void modelsOnAGpuRunCudnnsDeterministicAlgorithms() throws Exception {
    Map<String, String> p = probe("default");
    // set when the engine starts (NativeEngine), before any model, on a CPU too: nothing on a CPU reads it
    assertThat(p.get("cudnn-deterministic-cpu-only")).isEqualTo("true");
    assertThat(p.get("cudnn-deterministic")).isEqualTo("true");
    Map<String, String> off = probe("default", "-D" + CudnnDeterminism.PROPERTY + "=false");
    assertThat(off.get("cudnn-deterministic-cpu-only")).isEqualTo("false"); // PyTorch's default, untouched
    assertThat(off.get("cudnn-deterministic")).isEqualTo("false");
  }

  @Test
  void tf32IsAnExplicitChoiceMadeBeforeTheFirstGpuDevice() throws Exception {
    Map<String, String> p = probe("tf32");
    assertThat(p.get("chosen")).isEqualTo("tf32");
    assertThat(p.get("after-gpu")).isEqualTo("null"); // PyTorch's own defaults
    assertThat(p.get("precision")).isEqualTo("tf32");
    assertThat(p.get("switch")).contains("already tf32");
  }

  @Test
  void theDeterminismPropertyTakesTrueOrFalseAndNothingElse() {
    String before = System.getProperty(CudnnDeterminism.PROPERTY);
    try {
      System.setProperty(CudnnDeterminism.PROPERTY, " FALSE ");
      assertThat(CudnnDeterminism.wanted()).isFalse();
      System.setProperty(CudnnDeterminism.PROPERTY, "flase");
      assertThatThrownBy(CudnnDeterminism::wanted).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("-D" + CudnnDeterminism.PROPERTY + "=flase: give true (the default) or false");
      System.clearProperty(CudnnDeterminism.PROPERTY);
      assertThat(CudnnDeterminism.wanted()).isTrue();
    } finally {
      if (before == null) {
        System.clearProperty(CudnnDeterminism.PROPERTY);
      } else {
        System.setProperty(CudnnDeterminism.PROPERTY, before);
      }
    }
  }

  @Test
  void precisionNamesAreParsedOrRefusedClearly() {
    assertThat(Precision.parse(" TF32 ")).isEqualTo(Precision.TF32);
    assertThat(Precision.parse("fp32")).isEqualTo(Precision.FP32);
    assertThatThrownBy(() -> Precision.parse("bf16")).hasMessageContaining("'bf16'").hasMessageContaining("fp32");
  }

  /** The choke points hold only if nothing else in the code makes a DJL GPU device or a DJL model. */
  @Test
  void onlyDevicesMakesGpuDevicesAndModels() throws IOException {
    List<String> offenders;
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      offenders = files.filter(f -> f.toString().endsWith(".java"))
          .filter(f -> !f.endsWith(Path.of("io/expresso/engine/Devices.java")))
          .filter(f -> {
            try {
              String s = Files.readString(f);
              return s.matches("(?s).*\\bDevice\\.(gpu|of|fromName)\\(.*") || s.contains("defaultDevice(")
                  || s.contains("Model.newInstance(");
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          })
          .map(Path::toString).toList();
    }
    assertThat(offenders).isEmpty();
  }
}
