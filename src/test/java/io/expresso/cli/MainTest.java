package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream savedOut;
  private PrintStream savedErr;

  @BeforeEach
  void capture() {
    savedOut = System.out;
    savedErr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(savedOut);
    System.setErr(savedErr);
  }

  @Test
  void helpExitsZero() {
    assertThat(Main.execute("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("Usage: expresso");
  }

  @Test
  void unknownCommandIsBadUsageOnOneLine() {
    assertThat(Main.execute("frobnicate")).isEqualTo(2);
    String e = err.toString(StandardCharsets.UTF_8).strip();
    assertThat(e).startsWith("expresso: ").contains("frobnicate").doesNotContain("\n");
  }

  @Test
  void graphInfoReportsStronglyRegularParameters(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("petersen.g6");
    Files.writeString(file, "IheA@GUAo\n");
    assertThat(Main.execute("graph", "info", file.toString())).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("srg(10,3,0,1)").contains("  2  ");
  }

  @Test
  void missingFileFailsWithOneLineNamingIt(@TempDir Path dir) {
    Path file = dir.resolve("nope.g6");
    assertThat(Main.execute("graph", "info", file.toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8).strip()).startsWith("expresso: error:").contains("nope.g6");
  }

  @Test
  void malformedGraphFailsWithFileAndLine(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.g6");
    Files.writeString(file, "IheA@GUAo\nD?\n");
    assertThat(Main.execute("graph", "info", file.toString())).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("bad.g6 line 2");
  }
}
