package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A worker in a child JVM ({@code expresso worker}), as a fleet runs them: started, signalled
 * (SIGTERM, SIGKILL, SIGSTOP/SIGCONT) and read (its log, its /metrics) by integration tests.
 */
final class WorkerProcess implements AutoCloseable {

  final String id;
  final Path log;
  final int metricsPort;
  private final Process process;

  private WorkerProcess(String id, Path log, int metricsPort, Process process) {
    this.id = id;
    this.log = log;
    this.metricsPort = metricsPort;
    this.process = process;
  }

  /** Starts {@code expresso worker --id id} on one CPU device with {@code extra} flags; appends to its log. */
  static WorkerProcess start(String bootstrap, String id, Path dir, String... extra) throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    List<String> cmd = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
        "-Xmx512m", "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"), "io.expresso.cli.Main", "worker",
        "--bootstrap", bootstrap, "--devices", "cpu:1", "--id", id, "--metrics-port", String.valueOf(port),
        "--metrics-host", "127.0.0.1"));
    cmd.addAll(List.of(extra));
    Path log = dir.resolve(id + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    return new WorkerProcess(id, log, port, p);
  }

  /** Waits until the worker says it serves (its share consumers are subscribed). */
  WorkerProcess awaitServing() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (!logText().contains(": serving ")) {
      assertThat(process.isAlive()).as("worker %s exited early; its log:%n%s", id, logText()).isTrue();
      assertThat(System.nanoTime()).as("worker %s never said it was serving", id).isLessThan(deadline);
      Thread.sleep(100);
    }
    return this;
  }

  /** Waits until the log has {@code text} at least {@code times} times. */
  void awaitLog(String text, int times, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count(text) < times) {
      assertThat(System.nanoTime()).as("worker %s: '%s' never appeared %d times; log:%n%s", id, text, times, logText())
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  int count(String text) throws IOException {
    String s = logText();
    int n = 0;
    for (int i = s.indexOf(text); i >= 0; i = s.indexOf(text, i + 1)) {
      n++;
    }
    return n;
  }

  String logText() throws IOException {
    return Files.exists(log) ? Files.readString(log) : "";
  }

  /** The current value of a metric's series summed over its labels (0 if absent). */
  double metric(String name) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
    double sum = 0;
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$").matcher(r.body());
    while (m.find()) {
      sum += Double.parseDouble(m.group(2));
    }
    return sum;
  }

  boolean alive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** SIGTERM (a scale-down or rollout): the worker drains and leaves. */
  void terminate() {
    process.destroy();
  }

  /** SIGKILL (a crash, an OOM kill). */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  void signal(String sig) throws Exception {
    assertThat(new ProcessBuilder("kill", "-" + sig, String.valueOf(process.pid())).start().waitFor()).isZero();
  }

  int awaitExit(Duration timeout) throws Exception {
    assertThat(process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)).as("worker %s exits in time; log:%n%s", id, logText())
        .isTrue();
    return process.exitValue();
  }

  /** Tasks this worker ran to a result and cancelled, from the tally it prints when it stops. */
  int[] tally() throws IOException {
    Matcher m = Pattern.compile("stopped \\((\\d+) tasks run to a result, (\\d+) cancelled").matcher(logText());
    assertThat(m.find()).as("worker %s printed its tally; log:%n%s", id, logText()).isTrue();
    return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        signal("CONT");
      } catch (Exception ignored) {
        // best effort: a stopped process must resume to die by SIGKILL promptly anyway
      }
      process.destroyForcibly();
    }
  }
}
