package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.CommittedRecords;
import io.expresso.runtime.TaskMessages;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.Suite;
import io.expresso.suite.SuiteSpecs;
import io.expresso.testing.BrokerAndWorker;
import io.expresso.testing.Integration;
import io.expresso.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expresso experiment brec} on a real embedded broker and worker: BREC's 4-pair excerpt
 * (Basic, simple regular, strongly regular, Extension) under three models and two seeds. A first
 * run cut short after its first tasks (one of them failed) is resumed by the same experiment id:
 * only the missing and the failed tasks are published, each once, and the leaderboard across the
 * models, beside BREC's Table 2, is printed and written.
 */
@Integration
@Timeout(180)
class ExperimentBrecCommandTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @RegisterExtension static final BrokerAndWorker CLUSTER = new BrokerAndWorker("cpu:2");

  private static final List<String> MODELS = List.of("ppgn:layers=2,hidden=8", "3-wl", "1-wl");

  @Test
  void anInterruptedLeaderboardResumesWithOnlyItsMissingTasksAndPrintsTheTable(@TempDir Path out) throws Exception {
    String bootstrap = CLUSTER.bootstrap();
    String experiment = "lb-resume";
    String suiteSpec = "brec:" + SharedData.require("data/brec-excerpt/brec_excerpt.npy") + "#indices=0,60,110,160";
    Suite suite = SuiteSpecs.load(suiteSpec);
    long[] seeds = {0, 1};
    int total = MODELS.size() * suite.size() * seeds.length;

    // the first run, cut short: the first third of the interleaved order went out, one task broken
    List<PairTask> all = new ArrayList<>();
    TaskMessages.forEachInterleavedPairTask(experiment, suite, MODELS, seeds, 1,
        TrainingSettings.newBuilder().setEpochs(2).build(),
        RpcSettings.newBuilder().setQ(32).setAlpha(0.05).setThresholdMode("rpc").setConvention("brec").build(),
        all::add);
    List<PairTask> first = all.subList(0, total / 3);
    String broken = first.get(1).getHeader().getTaskId();
    try (Aggregator live = new Aggregator(bootstrap, experiment).start(); Publisher p = new Publisher(bootstrap)) {
      for (PairTask t : first) {
        p.send(t.getHeader().getTaskId(), t.getHeader().getTaskId().equals(broken)
            ? t.toBuilder().setGraphSecond("}}}not-graph6").build() : t);
      }
      p.flush();
      assertThat(live.awaitUnique(first.size(), Duration.ofSeconds(90))).isTrue();
      assertThat(live.result(broken).orElseThrow().hasError()).isTrue();
    }

    long t0 = System.nanoTime();
    int code = Main.execute("experiment", "brec", "--bootstrap", bootstrap, "--experiment", experiment,
        "--suite", suiteSpec, "--models", String.join(";", MODELS), "--seeds", "0-1", "--epochs", "2",
        "--out", out.toString(), "--timeout", "120");
    double seconds = (System.nanoTime() - t0) / 1e9;
    assertThat(code).as(console.err()).isZero();
    int resumed = total - first.size() + 1;
    assertThat(console.out()).contains("published " + resumed + " pair tasks (3 models x 4 pairs x 2 seeds")
        .contains("skipped " + (first.size() - 1) + " tasks that already succeeded");

    // each task published once, the failed one twice; the resumed ones in the same interleaved order
    Map<String, Integer> times = new TreeMap<>();
    List<String> publishedOrder = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> r : CommittedRecords.of(bootstrap, Topics.TASKS)) {
      if (r.key() != null && r.key().startsWith(experiment + "/")) {
        times.merge(r.key(), 1, Integer::sum);
        publishedOrder.add(r.key());
      }
    }
    assertThat(times).hasSize(total);
    assertThat(times.entrySet().stream().filter(e -> e.getValue() == 2).map(Map.Entry::getKey)).containsExactly(broken);
    assertThat(times.values()).allMatch(n -> n <= 2);

    // the leaderboard: every model on one table beside the paper, 3-WL's row from Table 2
    String printed = console.out();
    assertThat(printed).contains("BREC leaderboard (3 configurations)").contains("paper row")
        .contains("Regular (140)").contains("3-WL").contains("1-WL bound").contains("PPGN");
    String table = printed.substring(printed.indexOf("BREC leaderboard ("));
    // 3-WL tells apart all but the strongly regular pair, the 1-WL bound none (every BREC pair)
    assertThat(table.lines().filter(l -> l.startsWith("3-wl")).findFirst().orElseThrow()).contains("counts")
        .containsPattern("\\b3 \\(270\\)");
    assertThat(table.lines().filter(l -> l.startsWith("1-wl")).findFirst().orElseThrow())
        .containsPattern("\\b0 \\(0\\)");
    String md = Files.readString(out.resolve(experiment + ".report.md"));
    assertThat(md).contains("## BREC leaderboard").contains("| 3-wl | 3-WL | 2 | 0 | 4 | counts | 0 | 0 |");
    assertThat(out.resolve(experiment + ".accuracy.png")).exists();
    assertThat(Files.readString(out.resolve(experiment + ".report.html"))).contains("<h2>BREC leaderboard</h2>");
    try (Aggregator a = new Aggregator(bootstrap, experiment).start()) {
      assertThat(a.awaitUnique(total, Duration.ofSeconds(30))).isTrue();
      assertThat(a.results()).hasSize(total).noneMatch(Result::hasError);
    }
    System.err.printf("experiment brec resumed %d of %d tasks in %.1f s%n", resumed, total, seconds);

    // run again: nothing is missing, nothing is published
    assertThat(Main.execute("experiment", "brec", "--bootstrap", bootstrap, "--experiment", experiment,
        "--suite", suiteSpec, "--models", String.join(";", MODELS), "--seeds", "0-1", "--out", out.toString()))
        .as(console.err()).isZero();
    assertThat(console.out()).contains("published 0 pair tasks").contains("skipped " + total + " tasks");
  }

  @Test
  void badModelsAndRangesAreOneLineUsageErrors() {
    String suite = "brec:" + SharedData.require("data/brec-excerpt/brec_excerpt.npy") + "#indices=0,60,110,160";
    assertThat(Main.execute("experiment", "brec", "--bootstrap", CLUSTER.bootstrap(), "--suite", suite,
        "--models", "ppgn;gcn")).isEqualTo(2);
    assertThat(console.err()).contains("--models gcn");
    assertThat(Main.execute("experiment", "brec", "--bootstrap", CLUSTER.bootstrap(), "--suite", suite,
        "--models", "ppgn;ppgn")).isEqualTo(2);
    assertThat(console.err()).contains("names ppgn twice");
    assertThat(Main.execute("experiment", "brec", "--bootstrap", CLUSTER.bootstrap(), "--suite", suite,
        "--chunk", "0")).isEqualTo(2);
    assertThat(Main.execute("experiment", "brec", "--suite", suite)).isEqualTo(2);
    assertThat(console.err()).contains("give either --bootstrap B or --embedded");
    assertThat(Main.execute("experiment", "brec", "--bootstrap", CLUSTER.bootstrap(), "--suite", suite,
        "--threshold", "zero")).isEqualTo(2);
    assertThat(console.err()).contains("--threshold: unknown threshold 'zero' (expected rpc, rapc or a T² value such as 5)");
  }
}
