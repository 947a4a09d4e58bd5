package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The observability options and the watch command: help, usage errors, a port already in use. */
class ObserveCommandsTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();


  @Test
  void helpNamesTheMetricsOptions() {
    assertThat(Main.execute("watch", "--help")).isZero();
    assertThat(Main.execute("up", "--help")).isZero();
    assertThat(Main.execute("worker", "--help")).isZero();
    assertThat(console.out()).contains("--metrics-port").contains("--metrics-host")
        .contains("live page");
  }

  @Test
  void badPortsAreBadUsage() {
    assertThat(Main.execute("watch")).isEqualTo(2);
    assertThat(console.err()).contains("--bootstrap");
    console.resetErr();
    assertThat(Main.execute("watch", "--bootstrap", "127.0.0.1:1", "--metrics-port", "70000")).isEqualTo(2);
    assertThat(console.err()).startsWith("expresso: ").contains("--metrics-port 70000 is not a TCP port").doesNotContain("\n");
    console.resetErr();
    assertThat(Main.execute("worker", "--bootstrap", "127.0.0.1:1", "--metrics-port", "-1")).isEqualTo(2);
    assertThat(console.err()).contains("--metrics-port -1 is not a TCP port");
  }

  @Test
  void aPortInUseIsOneErrorLineAndExitOne() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int code = Main.execute("watch", "--bootstrap", "127.0.0.1:1", "--metrics-port",
          Integer.toString(taken.getLocalPort()));
      assertThat(code).isEqualTo(1);
      assertThat(console.err()).startsWith("expresso: error: cannot serve HTTP on 127.0.0.1:" + taken.getLocalPort())
          .contains("in use").doesNotContain("\n");
    }
  }
}
