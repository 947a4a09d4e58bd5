package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The observability options and the watch command: help, usage errors, a port already in use. */
class ObserveCommandsTest {

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

  private String err() {
    return err.toString(StandardCharsets.UTF_8).strip();
  }

  @Test
  void helpNamesTheMetricsOptions() {
    assertThat(Main.execute("watch", "--help")).isZero();
    assertThat(Main.execute("up", "--help")).isZero();
    assertThat(Main.execute("worker", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--metrics-port").contains("--metrics-host")
        .contains("live page");
  }

  @Test
  void badPortsAreBadUsage() {
    assertThat(Main.execute("watch")).isEqualTo(2);
    assertThat(err()).contains("--bootstrap");
    err.reset();
    assertThat(Main.execute("watch", "--bootstrap", "127.0.0.1:1", "--metrics-port", "70000")).isEqualTo(2);
    assertThat(err()).startsWith("expresso: ").contains("--metrics-port 70000 is not a TCP port").doesNotContain("\n");
    err.reset();
    assertThat(Main.execute("worker", "--bootstrap", "127.0.0.1:1", "--metrics-port", "-1")).isEqualTo(2);
    assertThat(err()).contains("--metrics-port -1 is not a TCP port");
  }

  @Test
  void aPortInUseIsOneErrorLineAndExitOne() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int code = Main.execute("watch", "--bootstrap", "127.0.0.1:1", "--metrics-port",
          Integer.toString(taken.getLocalPort()));
      assertThat(code).isEqualTo(1);
      assertThat(err()).startsWith("expresso: error: cannot serve HTTP on 127.0.0.1:" + taken.getLocalPort())
          .contains("in use").doesNotContain("\n");
    }
  }
}
