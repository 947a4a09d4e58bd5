package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import me.tongfei.progressbar.ProgressBar;
import org.junit.jupiter.api.Test;

class ProgressBarsTest {

  @Test
  void withoutATerminalTheBarIsPlainLinesEndingInTheFinalState() {
    StringWriter bytes = new StringWriter();
    PrintWriter err = new PrintWriter(bytes, true);
    try (ProgressBar bar = ProgressBars.start("eval", 4, false, err)) {
      ProgressBars.step(bar, "pair 0");
      ProgressBars.step(bar, "pair 1\u001b[2J"); // from a task: no escape sequence reaches the output
      ProgressBars.step(bar, "pair 2");
      ProgressBars.step(bar, "pair 3 distinguished");
    }
    String text = bytes.toString();
    assertThat(text).doesNotContain("\r", "\u001b");
    assertThat(text.lines()).as(text).isNotEmpty().allMatch(l -> l.startsWith("eval "));
    assertThat(text.lines().reduce((a, b) -> b).orElseThrow()).contains("100%", "4/4", "pair 3 distinguished");
  }

  @Test
  void aTotalThatWasAnEstimateGrowsWithWhatCame() {
    StringWriter bytes = new StringWriter();
    PrintWriter err = new PrintWriter(bytes, true);
    try (ProgressBar bar = ProgressBars.start("results", 2, false, err)) {
      ProgressBars.stepTo(bar, 3, "unique results");
      assertThat(bar.getMax()).isEqualTo(3);
    }
    assertThat(bytes.toString().lines().reduce((a, b) -> b).orElseThrow())
        .contains("3/3", "unique results");
  }

  @Test
  void onATerminalTheBarIsRedrawnInPlace() {
    StringWriter bytes = new StringWriter();
    PrintWriter err = new PrintWriter(bytes, true);
    try (ProgressBar bar = ProgressBars.start("eval", 2, true, err)) {
      ProgressBars.step(bar, "pair 0");
      ProgressBars.step(bar, "pair 1");
    }
    String text = bytes.toString();
    assertThat(text).startsWith("\r").contains("2/2").endsWith(System.lineSeparator());
  }
}
