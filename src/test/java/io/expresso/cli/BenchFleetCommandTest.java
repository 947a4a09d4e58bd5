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
  void theFleetBenchmarkIsASubcommandOfBench() {
    assertThat(Main.commandLine().getSubcommands().get("bench").getSubcommands()).containsKey("fleet");
  }
}
