package io.expresso.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One worker of {@code expresso bench fleet}: an {@code expresso worker} in a child JVM with the
 * same classpath, its output stamped with the benchmark's clock and kept in a log file, and its
 * {@code /metrics} scraped on demand.
 */
final class FleetWorker implements AutoCloseable {

  /** A log line, {@code t} seconds on the benchmark's clock. */
  record Line(double t, String text) {}

  /** One scrape of /metrics: when (benchmark clock, and epoch ms), and each metric summed over its labels. */
  record Scrape(double t, long epochMs, Map<String, Double> sums) {
    double get(String name) {
      return sums.getOrDefault(name, 0.0);
    }
  }

  final String id;
  final int metricsPort;
  private final Process process;
  private final long zeroNanos;
  private final List<Line> lines = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private volatile double launched;
  private volatile double ready = Double.NaN;
  private volatile double sigterm = Double.NaN;
  private volatile double exited = Double.NaN;
  private volatile Scrape lastScrape;

  private FleetWorker(String id, int metricsPort, Process process, long zeroNanos, Path log) {
    this.id = id;
    this.metricsPort = metricsPort;
    this.process = process;
    this.zeroNanos = zeroNanos;
    this.launched = now();
    Thread reader = new Thread(() -> read(log), "bench-fleet-log-" + id);
    reader.setDaemon(true);
    reader.start();
    process.onExit().thenRun(() -> exited = now());
  }

  /**
   * Starts {@code expresso worker --id ID --devices cpu:1 --metrics-port P ...extra} in a child
   * JVM; times are seconds since {@code zeroNanos} (System.nanoTime).
   */
  static FleetWorker start(String id, String bootstrap, List<String> extra, long zeroNanos, Path logDir)
      throws IOException {
    int port = freePort();
    List<String> cmd = new ArrayList<>(List.of(javaBin(), "-cp", System.getProperty("java.class.path"),
        "io.expresso.cli.Main", "worker", "--bootstrap", bootstrap, "--devices", "cpu:1", "--id", id,
        "--metrics-port", String.valueOf(port), "--metrics-host", "127.0.0.1"));
    cmd.addAll(extra);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    return new FleetWorker(id, port, p, zeroNanos, logDir.resolve(id + ".log"));
  }

  double now() {
    return (System.nanoTime() - zeroNanos) / 1e9;
  }

  private void read(Path log) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
      for (String s; (s = in.readLine()) != null; ) {
        double t = now();
        out.printf(java.util.Locale.ROOT, "%+9.3f %s%n", t, s);
        out.flush();
        synchronized (this) {
          lines.add(new Line(t, s));
          if (Double.isNaN(ready) && s.startsWith("worker " + id + ": serving")) {
            ready = t;
          }
          notifyAll();
        }
      }
    } catch (IOException e) {
      // the process is gone
    }
  }

  /** Waits until the worker said it serves; false on timeout or if it died. */
  synchronized boolean awaitReady(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (Double.isNaN(ready) && process.isAlive() && System.nanoTime() < end) {
      wait(100);
    }
    return !Double.isNaN(ready);
  }

  synchronized List<Line> lines() {
    return new ArrayList<>(lines);
  }

  /** Scrapes /metrics now; keeps it as the last scrape and returns it, or null if the worker did not answer. */
  Scrape scrape() {
    try {
      long epoch = System.currentTimeMillis();
      double t = now();
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
          .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        return null;
      }
      Scrape s = new Scrape(t, epoch, FleetSchedule.sums(r.body()));
      lastScrape = s;
      return s;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  Scrape lastScrape() {
    return lastScrape;
  }

  /**
   * SIGTERM: the worker drains and leaves the group. Through the process handle, not {@link
   * Process#destroy} (SIGTERM too on Linux), which also closes our end of the worker's output pipe
   * and so loses everything it logs while it drains.
   */
  void terminate() {
    if (Double.isNaN(sigterm)) {
      sigterm = now();
    }
    process.toHandle().destroy();
  }

  boolean awaitExit(Duration timeout) throws InterruptedException {
    return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  boolean alive() {
    return process.isAlive();
  }

  int exitCode() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  double launched() {
    return launched;
  }

  double ready() {
    return ready;
  }

  double sigterm() {
    return sigterm;
  }

  double exited() {
    return exited;
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  private static String javaBin() {
    return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
  }
}
