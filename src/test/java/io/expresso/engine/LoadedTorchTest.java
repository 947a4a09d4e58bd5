package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadedTorchTest {

  private static String mapped(Path lib) {
    return "7f3a1c000000-7f3a1c200000 r-xp 00000000 08:01 1234    " + lib;
  }

  @Test
  void aPipWheelsVersionAndCudaFlavourComeFromItsVersionFile(@TempDir Path site) throws Exception {
    Path lib = Files.createDirectories(site.resolve("torch/lib"));
    Files.writeString(site.resolve("torch/version.py"),
        "from typing import Optional\n__version__ = '2.11.0+cu130'\ncuda: Optional[str] = '13.0'\n");
    Path jni = site.resolve("djl/pytorch/2.11.0-cu130-linux-x86_64/0.36.0-libdjl_torch.so");
    LoadedTorch t = LoadedTorch.fromMaps(List.of("00400000-00401000 r-xp 00000000 08:01 1 /usr/lib/jvm/bin/java",
        mapped(lib.resolve("libc10.so")), mapped(lib.resolve("libtorch_cpu.so")), mapped(lib.resolve("libtorch_cuda.so")),
        mapped(jni), "7ffd0000-7ffd1000 rw-p 00000000 00:00 0  [stack]")).orElseThrow();
    assertThat(t.text()).isEqualTo("2.11.0+cu130");
    assertThat(t.libtorch()).isEqualTo(lib.resolve("libtorch_cpu.so"));
    assertThat(t.jni()).contains(jni);
  }

  @Test
  void aWheelWithoutALocalVersionTakesItsFlavourFromTheCudaLine(@TempDir Path site) throws Exception {
    Path lib = Files.createDirectories(site.resolve("torch/lib"));
    Files.writeString(site.resolve("torch/version.py"), "__version__ = '2.5.1'\ncuda = '12.4'\n");
    assertThat(LoadedTorch.fromMaps(List.of(mapped(lib.resolve("libtorch_cpu.so")))).orElseThrow().text())
        .isEqualTo("2.5.1+cu124");
  }

  @Test
  void djlsCacheFolderNamesVersionAndFlavour() {
    Path dir = Path.of("/root/.djl.ai/pytorch/2.7.1-20250812-cpu-linux-x86_64");
    assertThat(LoadedTorch.fromMaps(List.of(mapped(dir.resolve("libtorch_cpu.so")), mapped(dir.resolve("0.36.0-libdjl_torch.so"))))
        .orElseThrow()).isEqualTo(new LoadedTorch("2.7.1", "cpu", dir.resolve("libtorch_cpu.so"),
            Optional.of(dir.resolve("0.36.0-libdjl_torch.so"))));
  }

  @Test
  void nothingMappedMeansNotLoadedAndAnUnknownFolderSaysSo() {
    assertThat(LoadedTorch.fromMaps(List.of(mapped(Path.of("/usr/lib/libc.so.6"))))).isEmpty();
    LoadedTorch t = LoadedTorch.fromMaps(List.of(mapped(Path.of("/opt/libtorch/lib/libtorch_cpu.so")),
        mapped(Path.of("/opt/libtorch/lib/libtorch_cuda.so")))).orElseThrow();
    assertThat(t.text()).isEqualTo("unknown+cuda");
  }
}
