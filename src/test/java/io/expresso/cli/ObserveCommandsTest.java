package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.expresso.metrics.Metrics;
import io.expresso.web.HttpEndpoint;
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
    console.resetErr();
    assertThat(Main.execute("worker", "--bootstrap", "127.0.0.1:1", "--metrics-port", "9416-9401")).isEqualTo(2);
    assertThat(console.err()).contains("--metrics-port 9416-9401 is not a TCP port (0..65535) or a range of them");
  }

  /** Workers on one host network (deploy/docker-compose.yml) each take the first free port of a range. */
  @Test
  void aMetricsPortRangeSkipsThePortsInUse() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int first = taken.getLocalPort();
      int last = Math.min(first + 20, 65535);
      try (HttpEndpoint http = HttpEndpoint.metrics("127.0.0.1", first, last, new Metrics())) {
        assertThat(http.port()).isGreaterThan(first).isLessThanOrEqualTo(last);
      }
      assertThat(catchThrowable(() -> HttpEndpoint.metrics("127.0.0.1", first, first, new Metrics())))
          .hasMessageContaining("127.0.0.1:" + first).hasMessageContaining("in use");
    }
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
