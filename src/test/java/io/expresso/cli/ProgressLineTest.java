package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressLineTest {

  @Test
  void drawsTheBarInPlaceAndEndsTheLineWithTheSummary() {
    StringWriter out = new StringWriter();
    ProgressLine line = new ProgressLine(new PrintWriter(out), 4);
    line.step("pair 0");
    line.update(4, "pair 3"); // the last item is always drawn, however soon after the previous one
    line.finish("0 errors");
    String text = out.toString();
    assertThat(text).startsWith("\r[#######                       ] 1/4 ");
    assertThat(text).contains("\r[##############################] 4/4 ").contains("pair 3");
    assertThat(text).endsWith(" 0 errors" + System.lineSeparator());
  }

  @Test
  void anEmptyTotalIsAFullBar() {
    StringWriter out = new StringWriter();
    new ProgressLine(new PrintWriter(out), 0).finish("");
    assertThat(out.toString()).startsWith("\r[##############################] 0/0 ");
  }
}
