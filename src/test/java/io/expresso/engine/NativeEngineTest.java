package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.pytorch.jni.JniUtils;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine's one entry: what it records is what PyTorch runs. */
class NativeEngineTest {

  @Test
  void startsOnceAndRecordsWhatRuns() {
    EngineState s = NativeEngine.start();
    assertThat(NativeEngine.start()).isSameAs(s);
    assertThat(NativeEngine.started()).containsSame(s);
    assertThat(s.intraOpThreads()).isEqualTo(JniUtils.getNumThreads()).isEqualTo(ThreadPolicy.intraOpThreads());
    assertThat(s.interOpThreads()).isEqualTo(JniUtils.getNumInteropThreads()).isPositive();
    assertThat(s.cudnnDeterministic()).isEqualTo(CudnnDeterminism.wanted() && CudnnDeterminism.current());
    if (System.getenv("OMP_WAIT_POLICY") == null && System.getenv("GOMP_SPINCOUNT") == null) {
      // idle OpenMP threads spin briefly, then sleep
      assertThat(NativeEnvironment.get("OMP_WAIT_POLICY")).isEqualTo("PASSIVE");
      assertThat(NativeEnvironment.get("GOMP_SPINCOUNT")).isEqualTo("30000");
      assertThat(s.openMp()).isEqualTo("OMP_WAIT_POLICY=PASSIVE, GOMP_SPINCOUNT=30000");
    }
    assertThat(s.allocator()).contains("MALLOC_ARENA_MAX=");
    assertThat(s.text()).contains(s.intraOpThreads() + " intra-op");
  }

  @Test
  void aThreadCountGivenAsAnEnvironmentVariableRunsAsRecorded() throws Exception {
    // DJL 0.36 reads only the system property: the variable alone used to be recorded, not run
    Map<String, String> p = probe(Map.of(ThreadPolicy.PROPERTY, "3"));
    assertThat(p).containsEntry("recorded", "3").containsEntry("torch", "3").containsEntry("same", "true");
  }

  @Test
  void anEngineLoadedBeforeTheStartIsGivenTheThreadsItRecords() throws Exception {
    Map<String, String> p = probe(Map.of(), "djl-first", "3");
    assumeTrue(!p.get("before").equals("3"), "PyTorch's own default is already 3 here");
    assertThat(p).containsEntry("recorded", "3").containsEntry("torch", "3");
  }

  private static Map<String, String> probe(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java", "-Dai.djl.offline=true",
        "-cp", System.getProperty("java.class.path"), NativeEngineProbe.class.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().remove(ThreadPolicy.PROPERTY);
    pb.environment().putAll(env);
    Process proc = pb.start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(proc.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(proc.exitValue()).as(out).isZero();
    Map<String, String> lines = new TreeMap<>();
    for (String line : out.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && !line.contains(" ")) {
        lines.put(line.substring(0, eq), line.substring(eq + 1).strip());
      }
    }
    return lines;
  }
}
