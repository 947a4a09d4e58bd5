package io.expresso.metrics;

import io.expresso.runtime.TaskMessages;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.expresso.testing.Integration;
import io.expresso.web.LiveService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a publisher can do to the number of exposed series: 1,000 tasks, each with its own
 * experiment, suite file path and hostile category, stay within the label caps, expose no path,
 * and still pass {@code promtool check metrics}.
 */
@Integration
class LabelCardinalityTest {

  private static final int TASKS = 1000;
  /** Categories a hostile publisher might send: table breakers, markup, newlines, ANSI escapes. */
  private static final List<String> HOSTILE = List.of("Basic", "a|b", "<script>alert(1)</script>", "line\nbreak",
      "\u001b[31mred\u001b[0m", "x".repeat(300));

  private static String experiment(int i) {
    return "exp-" + i;
  }

  private static String suite(int i) {
    return "brec:/home/alice/private/run-" + i + "/brec_v" + i + ".npy#indices=0-9";
  }

  @Test
  void resultsWithAThousandExperimentsAndSuitesStayUnderTheCaps() throws Exception {
    try (Metrics m = new Metrics(new LabelGuard(LabelGuard.DEFAULT_MAX_VALUES_PER_LABEL,
        LabelGuard.DEFAULT_MAX_SERIES_PER_METER))) {
      ResultMetricsListener results = new ResultMetricsListener(m.results());
      for (int i = 0; i < TASKS; i++) {
        // what the aggregator hands over for a published pair task, model spec with a long parameter string
        results.onResult(Result.newBuilder().setExperimentId(experiment(i)).setTaskId(experiment(i) + "/0")
            .setProvenance(Provenance.newBuilder().setTaskKind("pair"))
            .setPair(PairResult.newBuilder().setSuiteId(suite(i)).setCategory(HOSTILE.get(i % HOSTILE.size()) + i)
                .setMethod(i % 2 == 0 ? "1-wl" : "gin:hidden=" + i + ",seed=" + "9".repeat(1000))
                .setDistinguished(i % 3 == 0).setReliable(true).setT2Test(i).setT2Reliability(1).setEpochs(3)
                .setFinalLoss(0.1))
            .build());
        m.tasks().started("pair", "cpu:0");
        m.tasks().finished("pair", "cpu:0", "ppgn:layers=" + i, 0.01, i % 2 == 0 ? null : "reason " + i);
      }
      checkBounded(m.scrape(), LabelGuard.DEFAULT_MAX_VALUES_PER_LABEL);
      assertThat(m.scrape()).contains("expresso_pair_t2_count{", "model=\"gin\"");
    }
  }

  @Test
  @Timeout(240)
  void publishedTasksWithAThousandExperimentsAndSuitesStayUnderTheCaps() throws Exception {
    PairTask template = TaskMessages.pairTasks("t", BuiltinSuite.generate().restrict(0, 0), "1-wl", new long[] {0},
        null, null).get(0);
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 2);
      Metrics m = new Metrics();
      LiveService live = LiveService.start(broker.bootstrap(), "127.0.0.1", 0, m);
      try (Worker w = Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse("cpu:1")),
              EvaluatorRegistry.defaults(), new TaskMetricsObserver(m.tasks()));
           Aggregator a = live.aggregator().start();
           Publisher p = new Publisher(broker.bootstrap())) {
        for (int i = 0; i < TASKS; i++) {
          PairTask t = template.toBuilder().setHeader(template.getHeader().toBuilder().setExperimentId(experiment(i)).setTaskId(experiment(i) + "/1-wl/0"))
              .setSuiteId(suite(i)).setCategory(HOSTILE.get(i % HOSTILE.size()) + i).build();
          p.send(t.getHeader().getTaskId(), t);
        }
        p.flush();
        assertThat(a.awaitUnique(TASKS, Duration.ofSeconds(180))).as("every result arrives").isTrue();
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + live.port() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        checkBounded(scrape.body(), LabelGuard.DEFAULT_MAX_VALUES_PER_LABEL);
        // which 100 suites keep their names depends on the order the worker ran the tasks in
        assertThat(scrape.body()).containsPattern("suite=\"brec_v[0-9]+\"").contains("suite=\"other\"", "model=\"1-wl\"");
      } finally {
        live.close();
        m.close();
      }
    }
  }

  /** Every expresso_ meter has at most a capped number of series, no label holds a path, promtool agrees. */
  private static void checkBounded(String scrape, int cap) throws Exception {
    Map<String, Set<String>> seriesByMeter = new TreeMap<>();
    Pattern line = Pattern.compile("(?m)^(expresso_[a-z0-9_]+?)(?:_bucket|_count|_sum|_max)?\\{([^\\n]*)} ");
    Matcher mt = line.matcher(scrape);
    while (mt.find()) {
      // one series per label set: histogram buckets, sums, counts and maxima are parts of it, and
      // the closed statistic label (test, reliability) only doubles T²'s series
      seriesByMeter.computeIfAbsent(mt.group(1), k -> new HashSet<>())
          .add(mt.group(2).replaceAll(",?(le|statistic)=\"[^\"]*\"", ""));
      for (Matcher v = Pattern.compile("=\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(mt.group(2)); v.find(); ) {
        assertThat(v.group(1)).as("a label value in %s", mt.group()).doesNotContain("/home", "\\n", "\u001b")
            .hasSizeLessThanOrEqualTo(LabelGuard.MAX_LENGTH + 16); // + escaping of quotes
      }
    }
    assertThat(seriesByMeter).containsKey("expresso_pairs_evaluated_total");
    // TASKS distinct experiments and suites would make TASKS series; the caps keep each meter
    // near one series per admitted value, plus the folded ones
    seriesByMeter.forEach((meter, series) -> assertThat(series).as(meter).hasSizeLessThanOrEqualTo(2 * cap));
    assertThat(scrape).contains("experiment=\"other\"");
    var promtool = ExternalTools.require("promtool", "prometheus");
    var run = ExternalTools.run(List.of(promtool.toString(), "check", "metrics"), scrape, 60);
    assertThat(run.output()).as(run.output()).doesNotContain("error");
    assertThat(run.exitCode()).as(run.output()).isZero();
  }
}
