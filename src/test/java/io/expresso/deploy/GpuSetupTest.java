package io.expresso.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.metrics.ExternalTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/gpu-setup's refusal of a JNI that would load a libc10/libtorch other than the given
 * PyTorch's own, on a fake layout of real shared libraries built here with gcc: a pip-style torch/lib
 * (unversioned sonames), a distribution's libc10 with a versioned soname (as Debian's python3-torch
 * ships in /usr/lib), and a foreign unversioned libc10 that an RPATH would load first.
 */
class GpuSetupTest {

  private static final Path SCRIPT = Path.of("scripts/gpu-setup").toAbsolutePath();

  @TempDir static Path dir;
  static Path torchLib;

  private static void sh(String... command) throws Exception {
    ExternalTools.Run r = ExternalTools.run(List.of(command), null, 60);
    assertThat(r.exitCode()).as("%s: %s", List.of(command), r.output()).isZero();
  }

  private static void library(Path out, String soname, String source, String... link) throws Exception {
    Path c = Files.writeString(dir.resolve(soname.replace('.', '_') + "_" + out.getFileName() + ".c"), source);
    List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("gcc", "gcc").toString(), "-shared", "-fPIC",
        "-o", out.toString(), "-Wl,-soname," + soname, c.toString()));
    cmd.addAll(List.of(link));
    sh(cmd.toArray(String[]::new));
  }

  @BeforeAll
  static void fakeLayout() throws Exception {
    ExternalTools.require("readelf", "binutils");
    torchLib = Files.createDirectories(dir.resolve("site-packages/torch/lib"));
    Path system = Files.createDirectories(dir.resolve("usr/lib"));
    Path foreign = Files.createDirectories(dir.resolve("opt/other-torch/lib"));
    library(torchLib.resolve("libc10.so"), "libc10.so", "int c10(void) { return 1; }\n");
    library(torchLib.resolve("libtorch.so"), "libtorch.so", "int torch(void) { return 2; }\n");
    library(system.resolve("libc10.so.2.6"), "libc10.so.2.6", "int c10(void) { return 3; }\n");
    Files.createSymbolicLink(system.resolve("libc10.so"), Path.of("libc10.so.2.6"));
    library(foreign.resolve("libc10.so"), "libc10.so", "int c10(void) { return 4; }\n");
  }

  private static ExternalTools.Run check(String name, String... searchFirst) throws Exception {
    Path so = dir.resolve(name);
    List<String> link = new ArrayList<>(List.of(searchFirst));
    link.addAll(List.of("-L" + torchLib, "-lc10", "-ltorch"));
    library(so, name, "int c10(void); int torch(void); int djl(void) { return c10() + torch(); }\n",
        link.toArray(String[]::new));
    return ExternalTools.run(List.of("bash", SCRIPT.toString(), "--check-linkage", so.toString(), torchLib.toString()),
        null, 60);
  }

  @Test
  void aJniLinkedAgainstThisTorchOnlyPasses() throws Exception {
    ExternalTools.Run r = check("libdjl_good.so", "-Wl,-rpath,$ORIGIN");
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("linkage ok: libc10.so libtorch.so all from " + torchLib.toRealPath());
  }

  @Test
  void aDistributionsVersionedLibc10IsRefusedWithTheReason() throws Exception {
    // the linker found /usr/lib's libc10.so first, as Torch's CMake config does on Debian
    ExternalTools.Run r = check("libdjl_system.so", "-L" + dir.resolve("usr/lib"));
    assertThat(r.exitCode()).as(r.output()).isEqualTo(3);
    assertThat(r.output()).contains("REFUSED").contains("needs libc10.so.2.6, which " + torchLib.toRealPath()
        + " does not hold");
  }

  @Test
  void aForeignLibc10ThatAnRpathWouldLoadIsRefused() throws Exception {
    Path foreign = dir.resolve("opt/other-torch/lib");
    ExternalTools.Run r = check("libdjl_rpath.so", "-L" + foreign, "-Wl,--disable-new-dtags,-rpath," + foreign);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(3);
    assertThat(r.output()).contains("REFUSED: libc10.so resolves to " + foreign.toRealPath().resolve("libc10.so"))
        .contains("outside " + torchLib.toRealPath());
  }

  @Test
  void theScriptBuildsForTheDjlOfThePom() throws Exception {
    Matcher script = Pattern.compile("(?m)^DJL_VERSION=(\\S+)").matcher(Files.readString(SCRIPT));
    Matcher pom = Pattern.compile("<djl.version>([^<]+)</djl.version>").matcher(Files.readString(Path.of("pom.xml")));
    assertThat(script.find() && pom.find()).isTrue();
    assertThat(script.group(1)).isEqualTo(pom.group(1));
  }
}
