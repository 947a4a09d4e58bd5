package io.expresso.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FleetBenchTest {

  @Test
  void longPartitionListsInLogLinesAreCutToTheirLength() {
    StringBuilder parts = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      parts.append(i == 0 ? "" : ", ").append("expresso.tasks.pair-").append(i);
    }
    assertThat(FleetBench.abbreviate("WARN TaskLoop - worker w1: lost [" + parts + "] (no longer a member)"))
        .isEqualTo("WARN TaskLoop - worker w1: lost [40 partitions] (no longer a member)");
    assertThat(FleetBench.abbreviate("worker w1: stopped [short]")).isEqualTo("worker w1: stopped [short]");
  }
}
