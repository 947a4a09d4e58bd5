package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code scripts/expresso} passes to java, with a stand-in java that prints its arguments (and,
 * as the JVM does, writes the class archive it is asked to record): the JIT's first tier for work on
 * CPU devices, both tiers for GPU work and other commands, and the class-data archive a first demo
 * records and later starts map.
 */
class LauncherScriptTest {

  @TempDir Path dir;
  private Path java;
  private Path jar;

  @BeforeEach
  void standIns() throws IOException {
    java = dir.resolve("java");
    Files.writeString(java, """
        #!/bin/sh
        for a in "$@"; do
          case "$a" in -XX:ArchiveClassesAtExit=*) printf 'classes' > "${a#*=}" ;; esac
        done
        echo "$@"
        """);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    jar = dir.resolve("expresso-test.jar");
    Files.writeString(jar, "not a jar: the stand-in java never opens it");
  }

  private String launch(boolean cds, String opts, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("bash", "scripts/expresso"));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("EXPRESSO_JAVA", java.toString());
    env.put("EXPRESSO_JAR", jar.toString());
    env.put("EXPRESSO_CDS", cds ? "1" : "0");
    env.put("XDG_CACHE_HOME", dir.resolve("cache").toString());
    env.remove("EXPRESSO_GPU_ENV");
    env.put("HOME", dir.toString());
    if (opts == null) {
      env.remove("EXPRESSO_JAVA_OPTS");
    } else {
      env.put("EXPRESSO_JAVA_OPTS", opts);
    }
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }

  @Test
  void workOnCpuDevicesRunsOnTheFirstTierAndGpuWorkOnBoth() throws Exception {
    String firstTier = "-XX:TieredStopAtLevel=1";
    assertThat(launch(false, null, "up", "--devices", "cpu:1")).contains(firstTier);
    assertThat(launch(false, null, "worker", "--devices=cpu:2", "--bootstrap", "b:9092")).contains(firstTier);
    assertThat(launch(false, null, "experiment", "brec", "--embedded", "--devices", "cpu:2")).contains(firstTier);
    assertThat(launch(false, null, "eval", "--model", "gin")).contains(firstTier);
    assertThat(launch(false, null, "demo", "--out", "x")).contains(firstTier);
    assertThat(launch(false, null, "worker", "--devices", "gpu:0x4")).doesNotContain(firstTier);
    assertThat(launch(false, null, "up", "--devices=gpu:0")).doesNotContain(firstTier);
    assertThat(launch(false, null, "eval", "--device", "gpu:0")).doesNotContain(firstTier);
    assertThat(launch(false, null, "publish", "synthetic", "--count", "1")).doesNotContain(firstTier);
    // a JIT option of the user's wins
    assertThat(launch(false, "-XX:TieredStopAtLevel=4", "up", "--devices", "cpu:1"))
        .doesNotContain(firstTier).contains("-XX:TieredStopAtLevel=4");
  }

  @Test
  void aFirstDemoRecordsTheClassArchiveAndLaterStartsMapIt() throws Exception {
    assertThat(launch(true, null, "models")).doesNotContain("SharedArchiveFile").doesNotContain("ArchiveClassesAtExit");
    assertThat(launch(true, null, "demo", "--help")).doesNotContain("ArchiveClassesAtExit");

    String first = launch(true, null, "demo", "--out", "x");
    assertThat(first).contains("records a class-data archive").contains("-XX:ArchiveClassesAtExit=");
    List<Path> archives;
    try (Stream<Path> s = Files.list(dir.resolve("cache/expresso"))) {
      archives = s.toList();
    }
    assertThat(archives).singleElement().satisfies(a -> assertThat(a.getFileName().toString())
        .startsWith("expresso-test-").endsWith(".jsa"));

    String later = launch(true, null, "worker", "--devices", "cpu:1");
    assertThat(later).contains("-XX:SharedArchiveFile=" + archives.get(0)).contains("-Xlog:cds=off")
        .doesNotContain("ArchiveClassesAtExit");
    assertThat(launch(false, null, "worker", "--devices", "cpu:1")).doesNotContain("SharedArchiveFile");
  }
}
