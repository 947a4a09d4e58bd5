package io.expresso.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThreadPolicyTest {

  private static final String THREADS = ThreadPolicy.PROPERTY;

  @Test
  void twoThreadsPerEvaluationOneEvaluationPerTwoCoresAndOneCpuDevicePerCore() {
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(ThreadPolicy.defaultThreads()).isEqualTo(Math.min(2, cores));
    assertThat(ThreadPolicy.evaluationsPerMachine(ThreadPolicy.defaultThreads()))
        .isEqualTo(Math.max(1, cores / ThreadPolicy.defaultThreads()));
    assertThat(ThreadPolicy.evaluationsPerMachine(1)).isEqualTo(cores);
    assertThat(ThreadPolicy.evaluationsPerMachine(cores + 1)).as("never none").isEqualTo(1);
    assertThat(ThreadPolicy.cpuDevices()).isEqualTo(cores);
    String before = System.getProperty(THREADS);
    try {
      System.clearProperty(THREADS);
      if (System.getenv(THREADS) == null) {
        assertThat(ThreadPolicy.intraOpThreads()).as("unset: the default").isEqualTo(ThreadPolicy.defaultThreads());
      }
      System.setProperty(THREADS, " 3 ");
      assertThat(ThreadPolicy.intraOpThreads()).isEqualTo(3);
      System.setProperty(THREADS, "two");
      assertThatThrownBy(ThreadPolicy::intraOpThreads).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(THREADS).hasMessageContaining("'two'");
      System.setProperty(THREADS, "0");
      assertThatThrownBy(ThreadPolicy::intraOpThreads).hasMessageContaining("above 0");
    } finally {
      if (before == null) {
        System.clearProperty(THREADS);
      } else {
        System.setProperty(THREADS, before);
      }
    }
  }
}
