package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @Test
  void helpExitsZero() {
    assertThat(Main.execute("--help")).isZero();
    assertThat(console.out()).contains("Usage: expresso");
  }

  @Test
  void unknownCommandIsBadUsageOnOneLine() {
    assertThat(Main.execute("frobnicate")).isEqualTo(2);
    String e = console.err();
    assertThat(e).startsWith("expresso: ").contains("frobnicate").doesNotContain("\n");
  }

  @Test
  void graphInfoReportsStronglyRegularParameters(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("petersen.g6");
    Files.writeString(file, "IheA@GUAo\n");
    assertThat(Main.execute("graph", "info", file.toString())).isZero();
    assertThat(console.out()).contains("srg(10,3,0,1)").contains("  2  ");
  }

  @Test
  void missingFileFailsWithOneLineNamingIt(@TempDir Path dir) {
    Path file = dir.resolve("nope.g6");
    assertThat(Main.execute("graph", "info", file.toString())).isEqualTo(1);
    assertThat(console.err()).startsWith("expresso: error:").contains("nope.g6");
  }

  @Test
  void malformedGraphFailsWithFileAndLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.g6");
    Files.writeString(file, "IheA@GUAo\nD?\n");
    assertThat(Main.execute("graph", "info", file.toString())).isEqualTo(1);
    assertThat(console.err()).contains("bad.g6 line 2");
  }
}
