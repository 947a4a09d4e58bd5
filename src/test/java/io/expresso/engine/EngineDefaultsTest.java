package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class EngineDefaultsTest {

  private static final String THREADS = "ai.djl.pytorch.num_threads";

  @Test
  void twoThreadsPerEvaluationAndOneEvaluationPerTwoCores() {
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(EngineDefaults.defaultThreads()).isEqualTo(Math.min(2, cores));
    String before = System.getProperty(THREADS);
    try {
      System.clearProperty(THREADS);
      assertThat(EngineDefaults.intraOpThreads()).as("unset: the default").isEqualTo(EngineDefaults.defaultThreads());
      assertThat(EngineDefaults.evaluationsPerMachine()).isEqualTo(Math.max(1, cores / EngineDefaults.defaultThreads()));
      System.setProperty(THREADS, "1");
      assertThat(EngineDefaults.evaluationsPerMachine()).isEqualTo(cores);
      System.setProperty(THREADS, Integer.toString(cores + 1));
      assertThat(EngineDefaults.evaluationsPerMachine()).as("never none").isEqualTo(1);
      System.setProperty(THREADS, "two");
      assertThatThrownBy(EngineDefaults::intraOpThreads).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(THREADS).hasMessageContaining("'two'");
    } finally {
      if (before == null) {
        System.clearProperty(THREADS);
      } else {
        System.setProperty(THREADS, before);
      }
    }
  }

  @Test
  void openMpSpinsBrieflyThenSleepsUnlessTheUserSaidOtherwise() {
    // a user's own values would be kept as they are: this checks a JVM started without them
    assumeTrue(System.getenv("OMP_WAIT_POLICY") == null && System.getenv("GOMP_SPINCOUNT") == null);
    EngineDefaults.apply();
    assertThat(NativeEnvironment.get("OMP_WAIT_POLICY")).isEqualTo("PASSIVE");
    assertThat(NativeEnvironment.get("GOMP_SPINCOUNT")).isEqualTo("30000");
  }
}
