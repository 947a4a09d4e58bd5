package io.expresso.web;

import io.expresso.runtime.TaskMessages;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.metrics.DashboardQueries;
import io.expresso.metrics.ExternalTools;
import io.expresso.metrics.MeterNames;
import io.expresso.metrics.Metrics;
import io.expresso.metrics.TaskMetricsObserver;
import io.expresso.proto.v1.AttackResult;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.Suite;
import io.expresso.testing.Integration;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The observability stack on the real system: an embedded KRaft broker, a worker on two CPU
 * devices and the aggregator with the live page, exactly as {@code expresso up} wires them. A small
 * experiment runs (the built-in suite under 1-WL and 3-WL, synthetic tasks, one malformed task);
 * then the scrape is checked with promtool, the real Prometheus server evaluates every dashboard
 * query, and headless Chromium watches the live page update.
 *
 * <p>One real train task (a tiny PPGN learning to count triangles) runs on the worker, so the
 * per-epoch training progress ({@code expresso.progress}, the {@code expresso_train_*} gauges) and
 * the train-result meters come from the real evaluator. A trained GNN pair and an attack take
 * minutes, so the test writes one GNN pair result and one attack result onto
 * {@code expresso.results} itself (marked worker "test-injector") to show those panels.
 */
@Integration
@org.junit.jupiter.api.Timeout(180)
class LiveSystemTest {

  static final String EXPERIMENT = "obs-baselines";
  static EmbeddedBroker broker;
  static Metrics metrics;
  static LiveService live;
  static Aggregator aggregator;
  static Worker worker;
  static Publisher publisher;
  static int expected;
  static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void startSystemAndRunAnExperiment() throws Exception {
    broker = EmbeddedBroker.start(0, null);
    Topics.ensure(broker.bootstrap(), 4);
    metrics = new Metrics();
    List<DeviceSlot> devices = DeviceSlot.parse("cpu:2");
    devices.forEach(d -> metrics.tasks().registerDevice(d.id()));
    live = LiveService.start(broker.bootstrap(), "127.0.0.1", 0, metrics);
    aggregator = live.aggregator().start();
    worker = Worker.start(Worker.Settings.of(broker.bootstrap(), devices), EvaluatorRegistry.defaults(),
        new TaskMetricsObserver(metrics.tasks()));
    publisher = new Publisher(broker.bootstrap());

    Suite suite = BuiltinSuite.generate();
    List<PairTask> tasks = new ArrayList<>();
    for (String method : List.of("1-wl", "3-wl")) {
      tasks.addAll(TaskMessages.pairTasks(EXPERIMENT, suite, method, new long[] {0}, null, null));
    }
    for (PairTask t : tasks) {
      publisher.send(t.getHeader().getTaskId(), t);
    }
    for (int i = 0; i < 20; i++) {
      publisher.send(EXPERIMENT + "/synthetic/" + i, TaskMessages.syntheticTask(EXPERIMENT, i, 5));
    }
    publisher.send(EXPERIMENT + "/bad", tasks.get(0).toBuilder()
        .setHeader(tasks.get(0).getHeader().toBuilder().setTaskId(EXPERIMENT + "/bad")).setGraphFirst("not graph6 ~~").build());
    io.expresso.robust.TrainJob train = io.expresso.robust.StudyJobs.train("obs-robust",
        io.expresso.robust.StudyJobs.resolveSpec("ppgn", io.expresso.count.Pattern.TRIANGLE, io.expresso.robust.Scale.TINY),
        io.expresso.count.Pattern.TRIANGLE, "er-0.3", io.expresso.robust.Scale.TINY, 0);
    publisher.send(io.expresso.robust.StudyJobs.taskId(train),
        io.expresso.robust.fleet.StudyTasks.trainTask("obs-robust", train));
    publisher.flush();
    injectRobustnessResults(broker.bootstrap());
    expected = tasks.size() + 20 + 1 + 1 + 2;
    assertThat(aggregator.awaitUnique(expected, Duration.ofSeconds(120)))
        .as("results arrived: %d of %d", aggregator.uniqueCount(), expected).isTrue();
  }

  /** Results that take minutes of real training (a GNN pair, an attack); see the class comment. */
  static void injectRobustnessResults(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    Provenance.Builder prov = Provenance.newBuilder().setWorkerId("test-injector").setDevice("cpu:0");
    List<Result> results = List.of(
        Result.newBuilder().setExperimentId("obs-gnn").setTaskId("obs-gnn/gin/0")
            .setProvenance(prov.clone().setTaskKind("pair"))
            .setPair(PairResult.newBuilder().setSuiteId("builtin").setCategory("CFI").setMethod("gin")
                .setDistinguished(true).setReliable(true).setT2Test(180.5).setT2Reliability(21.0)
                .setThreshold(72.34).setEpochs(40).setFinalLoss(0.31).setPeakRssBytes(1_500_000_000L)).build(),
        Result.newBuilder().setExperimentId("obs-robust").setTaskId("obs-robust/attack/0")
            .setProvenance(prov.clone().setTaskKind("attack"))
            .setAttack(AttackResult.newBuilder().setModel("gin-count").setPattern("triangle")
                .setSpace("budgeted").addAllBudgets(List.of(1, 2, 4)).addAllBudgetFractions(List.of(0.05, 0.1, 0.25))
                .addOutcomes(GraphOutcome.newBuilder().addAllBudgets(List.of(1, 2, 4)).addAllAdversarial(List.of(false, true, true)))
                .addOutcomes(GraphOutcome.newBuilder().addAllBudgets(List.of(1, 2, 4)).addAllAdversarial(List.of(false, false, true))))
            .build());
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      for (Result r : results) {
        producer.send(new ProducerRecord<>(Topics.RESULTS, r.getTaskId(), r.toByteArray()));
      }
    }
  }

  @AfterAll
  static void stop() {
    if (publisher != null) {
      publisher.close();
    }
    if (worker != null) {
      worker.close();
    }
    if (aggregator != null) {
      aggregator.close();
    }
    if (live != null) {
      live.close();
    }
    if (broker != null) {
      broker.close();
    }
    if (metrics != null) {
      metrics.close();
    }
  }

  static String get(String url) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    return r.body();
  }

  static String base() {
    return "http://127.0.0.1:" + live.port();
  }

  @Test
  void scrapePassesPromtoolAndExposesEveryDashboardMetric() throws Exception {
    String scrape = get(base() + "/metrics");
    Path promtool = ExternalTools.require("promtool", "prometheus");
    var check = ExternalTools.run(List.of(promtool.toString(), "check", "metrics"), scrape, 60);
    assertThat(check.exitCode()).as(check.output()).isZero();

    Set<String> exposed = DashboardQueries.exposedNames(scrape);
    Set<String> missing = new TreeSet<>();
    for (DashboardQueries.Query q : DashboardQueries.all()) {
      for (String name : DashboardQueries.metricNames(q.expr())) {
        if (!exposed.contains(name)) {
          missing.add(name + " (" + q.dashboard() + " / " + q.panel() + ")");
        }
      }
    }
    assertThat(missing).as("dashboard metrics missing from a live scrape").isEmpty();
    // the science, as counted from real results: 1-WL never separates the built-in pairs
    // (all are 1-WL-equivalent by construction); every result was counted once
    assertThat(scrape).containsPattern(
        "expresso_pairs_evaluated_total\\{category=\"[^\"]+\",experiment=\"obs-baselines\",model=\"1-wl\",suite=\"builtin\"}");
    assertThat(metrics.registry().find(MeterNames.PAIRS_DISTINGUISHED).tag("model", "1-wl").counters()
        .stream().mapToDouble(c -> c.count()).sum()).isZero();
    double evaluated1wl = metrics.registry().find(MeterNames.PAIRS_EVALUATED).tag("model", "1-wl").counters()
        .stream().mapToDouble(c -> c.count()).sum();
    assertThat(evaluated1wl).isEqualTo(BuiltinSuite.generate().size());
    assertThat(metrics.registry().get(MeterNames.TASKS_FAILED).tag("reason", "invalid-graph6").counter().count()).isEqualTo(1.0);
    assertThat(metrics.registry().get(MeterNames.TASKS_COMPLETED).tag("kind", "synthetic").counter().count())
        .isGreaterThanOrEqualTo(20.0); // other tests of this class add synthetic load
  }

  @Test
  void realPrometheusEvaluatesEveryDashboardQueryWithData() throws Exception {
    Path prometheus = ExternalTools.require("prometheus", "prometheus");
    Path dir = Files.createTempDirectory("expresso-prometheus");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Files.writeString(dir.resolve("prometheus.yml"), """
        global: {scrape_interval: 1s, evaluation_interval: 1s}
        scrape_configs:
          - job_name: expresso
            static_configs: [{targets: ['127.0.0.1:%d']}]
        """.formatted(live.port()));
    Process server = new ProcessBuilder(prometheus.toString(),
        "--config.file=" + dir.resolve("prometheus.yml"), "--storage.tsdb.path=" + dir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
    // keep tasks flowing while Prometheus scrapes, so rates and latency quantiles have data
    ScheduledExecutorService feeder = Executors.newSingleThreadScheduledExecutor();
    AtomicInteger fed = new AtomicInteger();
    feeder.scheduleAtFixedRate(() -> {
      int i = fed.getAndIncrement();
      publisher.send("obs-load/synthetic/" + i, TaskMessages.syntheticTask("obs-load", i, 3));
      publisher.flush();
    }, 0, 100, TimeUnit.MILLISECONDS);
    String api = "http://127.0.0.1:" + port + "/api/v1/query?query=";
    try {
      waitFor(() -> {
        JsonNode up = query(api, "up{job=\"expresso\"} == 1");
        return up.path("data").path("result").size() == 1;
      }, Duration.ofSeconds(30), "Prometheus scraping the live page's /metrics; log " + dir.resolve("prometheus.log"));
      Thread.sleep(4000); // a few more scrapes: rate() needs two samples in its window
      List<String> empty = new ArrayList<>();
      StringBuilder report = new StringBuilder();
      for (DashboardQueries.Query q : DashboardQueries.all()) {
        JsonNode r = query(api, q.forPrometheus());
        assertThat(r.path("status").asText()).as(q.forPrometheus() + " → " + r).isEqualTo("success");
        JsonNode result = r.path("data").path("result");
        report.append(q.dashboard()).append(" / ").append(q.panel()).append(": ").append(result.size())
            .append(" series, e.g. ").append(result.size() > 0 ? result.get(0).path("value").get(1).asText() : "-")
            .append('\n');
        if (result.isEmpty()) {
          empty.add(q.dashboard() + " / " + q.panel() + ": " + q.forPrometheus());
        }
      }
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target/dashboard-queries.txt"), report);
      assertThat(empty).as("dashboard queries with no data").isEmpty();
      // not just present: the load fed during the scrapes shows as throughput and latency
      assertThat(query(api, "sum(rate(expresso_tasks_completed_total{kind=\"synthetic\"}[1m]))")
          .path("data").path("result").get(0).path("value").get(1).asDouble()).isPositive();
      double p99 = query(api, "histogram_quantile(0.99, sum by (le) (rate(expresso_task_duration_seconds_bucket{kind=\"synthetic\"}[1m])))")
          .path("data").path("result").get(0).path("value").get(1).asDouble();
      assertThat(p99).as("p99 of a 3 ms synthetic task").isBetween(0.003, 10.0);
    } finally {
      feeder.shutdownNow();
      server.destroy();
      if (!server.waitFor(10, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  @Test
  void livePageShowsARunningExperimentUpdatingInABrowser() throws Exception {
    Path node = ExternalTools.require("node", "nodejs");
    Path chromium = ExternalTools.require("chromium", "chromium");
    assertThat(Path.of("src/test/browser/node_modules/playwright-core")).as("run: npm ci --prefix src/test/browser").exists();
    Files.createDirectories(Path.of("target"));
    Path shot = Path.of("target/live-page.png").toAbsolutePath();
    String experiment = "obs-live";
    Process browser = new ProcessBuilder(node.toString(), "src/test/browser/live-page.mjs", base() + "/", experiment,
        shot.toString(), chromium.toString()).redirectErrorStream(true).start();
    // the experiment runs while the page watches: pair tasks first, then slow synthetic tasks
    Suite suite = BuiltinSuite.generate();
    for (PairTask t : TaskMessages.pairTasks(experiment, suite, "3-wl", new long[] {1}, null, null)) {
      publisher.send(t.getHeader().getTaskId(), t);
    }
    publisher.flush();
    for (int i = 0; i < 60 && browser.isAlive(); i++) {
      publisher.send(experiment + "/synthetic/" + i, TaskMessages.syntheticTask(experiment, i, 40));
      publisher.flush();
      Thread.sleep(150);
    }
    assertThat(browser.waitFor(90, TimeUnit.SECONDS)).as("browser check finished").isTrue();
    String out = new String(browser.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(browser.exitValue()).as(out).isZero();
    JsonNode seen = new ObjectMapper().readTree(out.substring(out.lastIndexOf('\n') + 1));
    assertThat(seen.path("second").asInt()).isGreaterThan(seen.path("first").asInt());
    assertThat(seen.path("lastVersion").asLong()).isGreaterThan(seen.path("firstVersion").asLong());
    assertThat(seen.path("rows").size()).as("per-category rows").isPositive();
    assertThat(seen.path("workers").asInt()).isPositive();
    assertThat(seen.path("progress").asBoolean()).as("progress against published tasks").isTrue();
    assertThat(shot).exists();
    assertThat(Files.size(shot)).isGreaterThan(10_000);
  }

  static JsonNode query(String api, String promql) throws IOException, InterruptedException {
    return new ObjectMapper().readTree(get(api + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
  }

  interface Check {
    boolean ok() throws Exception;
  }

  static void waitFor(Check check, Duration timeout, String what) throws Exception {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      try {
        if (check.ok()) {
          return;
        }
      } catch (IOException | AssertionError e) {
        // not up yet
      }
      Thread.sleep(250);
    }
    throw new AssertionError("timed out waiting for " + what);
  }
}
