package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.engine.CudnnDeterminism;
import io.expresso.engine.TorchThreadState;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** A bad {@code -D} setting is a usage error named in one line, before any command runs. */
class ProcessSettingsTest {

  private final StringWriter err = new StringWriter();

  @AfterEach
  void clear() {
    System.clearProperty(TorchThreadState.PROPERTY);
    System.clearProperty(CudnnDeterminism.PROPERTY);
  }

  private int run(String... args) {
    CommandLine cl = Main.commandLine();
    cl.setErr(new PrintWriter(err, true));
    cl.setOut(new PrintWriter(new StringWriter(), true));
    return cl.execute(args);
  }

  @ParameterizedTest
  @CsvSource({
      "expresso.gpu.backward, x, give caller (the default) or device",
      "expresso.gpu.deterministic, maybe, give true (the default) or false"})
  void aBadPropertyStopsTheCommandWithExitCodeTwo(String property, String value, String hint) {
    System.setProperty(property, value);

    assertThat(run("doctor", "--devices", "cpu:1")).isEqualTo(2);

    assertThat(err.toString().strip()).isEqualTo("expresso: -D" + property + "=" + value + ": " + hint);
  }

  @Test
  void helpStillAnswersUnderABadProperty() {
    System.setProperty(TorchThreadState.PROPERTY, "x");

    assertThat(run("doctor", "--help")).isZero();
  }

  @Test
  void goodSettingsReadWithoutAProblem() {
    System.setProperty(TorchThreadState.PROPERTY, "device");

    assertThat(ProcessSettings.problem()).isEmpty();
  }
}
