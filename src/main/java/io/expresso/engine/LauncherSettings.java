package io.expresso.engine;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code scripts/expresso} sets for a CPU evaluation and Java cannot set for itself once it runs:
 * glibc's arena limit ({@code MALLOC_ARENA_MAX=1}, read before {@code main}; see {@link NativeMemory})
 * and the JIT's first tier only ({@code -XX:TieredStopAtLevel=1}, read at the JVM's start). Without
 * them, as under a plain {@code java -jar}, BREC's small CPU pairs ran 1.4–3.8× slower
 * (docs/results/launcher-vs-java-jar.md), so such a run says so in one line rather than being slow
 * without a word.
 */
public final class LauncherSettings {

  private LauncherSettings() {}

  /** The note for a CPU evaluation started without the launcher's settings, or empty when both are in force. */
  public static Optional<String> missingForCpuEvaluation() {
    return note(System.getenv("MALLOC_ARENA_MAX"), ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  static Optional<String> note(String arenaMax, List<String> jvmArguments) {
    List<String> missing = new ArrayList<>();
    if (arenaMax == null) {
      missing.add("MALLOC_ARENA_MAX=1");
    }
    if (jvmArguments.stream().noneMatch(a -> a.startsWith("-XX:TieredStopAtLevel"))) {
      missing.add("-XX:TieredStopAtLevel=1");
    }
    return missing.isEmpty() ? Optional.empty()
        : Optional.of("started without " + String.join(" and ", missing) + ", which scripts/expresso sets: CPU pairs"
            + " may run 1.4-3.8x slower (docs/results/launcher-vs-java-jar.md)");
  }
}
