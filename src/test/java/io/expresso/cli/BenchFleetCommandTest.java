package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class BenchFleetCommandTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @Test
  void badOptionsAreBadUsageBeforeAnythingStarts() {
    assertThat(Main.execute("bench", "fleet", "--tasks", "0")).isEqualTo(2);
    assertThat(console.err()).contains("--tasks 0");
    console.resetErr();
    assertThat(Main.execute("bench", "fleet", "--join-at", "20x")).isEqualTo(2);
    assertThat(console.err()).contains("duration '20x'");
    assertThat(Main.execute("bench", "fleet", "--help")).isZero();
    assertThat(console.out()).contains("--leave-at").contains("--stop-grace");
  }

  @Test
  void longPartitionListsInLogLinesAreCutToTheirLength() {
    StringBuilder parts = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      parts.append(i == 0 ? "" : ", ").append("expresso.tasks.pair-").append(i);
    }
    assertThat(BenchFleetCommand.abbreviate("WARN TaskLoop - worker w1: lost [" + parts + "] (no longer a member)"))
        .isEqualTo("WARN TaskLoop - worker w1: lost [40 partitions] (no longer a member)");
    assertThat(BenchFleetCommand.abbreviate("worker w1: stopped [short]")).isEqualTo("worker w1: stopped [short]");
  }

  @Test
  void theFleetBenchmarkIsASubcommandOfBench() {
    assertThat(Main.commandLine().getSubcommands().get("bench").getSubcommands()).containsKey("fleet");
  }
}
