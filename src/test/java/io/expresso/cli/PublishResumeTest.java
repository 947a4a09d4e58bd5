package io.expresso.cli;

import io.expresso.runtime.TaskMessages;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.Suite;
import io.expresso.testing.BrokerAndWorker;
import io.expresso.testing.Integration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Publishing an experiment again resumes it, on a real embedded broker and worker: a half-failed
 * experiment re-published re-runs only its failed tasks, the report then shows every task
 * succeeded, and {@code --force} publishes everything again without changing the report.
 */
@Integration
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(180)
class PublishResumeTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @RegisterExtension static final BrokerAndWorker CLUSTER = new BrokerAndWorker("cpu:2");
  private String bootstrap;

  @BeforeAll
  void bootstrap() {
    bootstrap = CLUSTER.bootstrap();
  }

  @Test
  void republishingAHalfFailedSyntheticExperimentRerunsOnlyItsFailedTasks() throws Exception {
    String experiment = "resume";
    int count = 12;
    Set<String> failing = new TreeSet<>();
    try (Aggregator live = new Aggregator(bootstrap, experiment).start()) {
      // the first run: every other task fails (an exception or a NaN), as a flaky evaluation would
      try (Publisher p = new Publisher(bootstrap)) {
        for (int i = 0; i < count; i++) {
          SyntheticTask t = TaskMessages.syntheticTask(experiment, i, 1);
          if (i % 2 == 0) {
            t = t.toBuilder().setFail(i % 4 == 0 ? "exception" : "nan").build();
            failing.add(t.getHeader().getTaskId());
          }
          p.send(t.getHeader().getTaskId(), t);
        }
        p.flush();
      }
      assertThat(live.awaitUnique(count, Duration.ofSeconds(90))).isTrue();
      assertThat(failedIds(live)).isEqualTo(failing);

      assertThat(Main.execute("publish", "synthetic", "--bootstrap", bootstrap, "--experiment", experiment,
          "--count", String.valueOf(count), "--work-ms", "1")).as(console.err()).isZero();
      assertThat(console.out()).contains("published 6 synthetic tasks")
          .contains("skipped 6 tasks that already succeeded; --force publishes them again");
      Map<String, Integer> published = publishedTimes(Topics.TASKS, experiment);
      assertThat(published).hasSize(count);
      assertThat(publishedTwice(published)).as("published twice: exactly the failed tasks").isEqualTo(failing);

      awaitNoErrors(live, count);
      assertThat(live.supersededSeen()).isEqualTo(failing.size());
      assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", experiment, "--json"))
          .as(console.err()).isZero();
      JsonNode summary = lastJson(console.out());
      assertThat(summary.get("unique_results").asInt()).isEqualTo(count);
      assertThat(summary.get("errors").asInt()).isZero();
      assertThat(summary.get("categories").get(0).get("tasks").asInt()).isEqualTo(count);
      assertThat(summary.get("categories").get(0).get("errors").asInt()).isZero();

      // nothing left to do; --force runs everything again, and the first successes still count
      List<Result> before = live.results();
      assertThat(Main.execute("publish", "synthetic", "--bootstrap", bootstrap, "--experiment", experiment,
          "--count", String.valueOf(count))).as(console.err()).isZero();
      assertThat(console.out()).contains("published 0 synthetic tasks").contains("skipped 12 tasks");
      assertThat(Main.execute("publish", "synthetic", "--bootstrap", bootstrap, "--experiment", experiment,
          "--count", String.valueOf(count), "--force")).as(console.err()).isZero();
      assertThat(console.out()).contains("published 12 synthetic tasks");
      assertThat(publishedTimes(Topics.TASKS, experiment).values().stream().mapToInt(Integer::intValue)
          .sum()).isEqualTo(count + failing.size() + count);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (live.duplicatesSeen() < count && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(live.duplicatesSeen()).as("the forced re-runs arrive as duplicates").isEqualTo(count);
      assertThat(live.results()).isEqualTo(before);
    }
  }

  @Test
  void republishingABrecExperimentRerunsOnlyThePairsThatFailed() throws Exception {
    String experiment = "resume-brec";
    Suite suite = BuiltinSuite.generate().restrict(0, 9);
    Set<String> failing = new TreeSet<>();
    try (Aggregator live = new Aggregator(bootstrap, experiment).start()) {
      // the first run: some pairs arrive broken (as from a bad suite file) and fail as invalid-graph6
      List<PairTask> tasks = TaskMessages.pairTasks(experiment, suite, "1-wl", new long[] {0}, null, null);
      try (Publisher p = new Publisher(bootstrap)) {
        for (PairTask t : tasks) {
          if (t.getPairIndex() % 3 == 0) {
            t = t.toBuilder().setGraphSecond("}}}not-graph6").build();
            failing.add(t.getHeader().getTaskId());
          }
          p.send(t.getHeader().getTaskId(), t);
        }
        p.flush();
      }
      assertThat(live.awaitUnique(tasks.size(), Duration.ofSeconds(90))).isTrue();
      assertThat(failedIds(live)).isEqualTo(failing).isNotEmpty();

      assertThat(Main.execute("publish", "brec", "--bootstrap", bootstrap, "--experiment", experiment,
          "--suite", "builtin", "--pairs", "0-9", "--model", "1-wl")).as(console.err()).isZero();
      assertThat(console.out()).contains("published " + failing.size() + " pair tasks")
          .contains("skipped " + (tasks.size() - failing.size()) + " tasks that already succeeded");
      Map<String, Integer> published = publishedTimes(Topics.TASKS, experiment);
      assertThat(publishedTwice(published)).isEqualTo(failing);

      awaitNoErrors(live, tasks.size());
      assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", experiment)).as(console.err())
          .isZero();
      assertThat(console.out()).contains("experiment " + experiment + ": " + tasks.size()
          + " unique results, 0 duplicates in report, 0 errors");
    }
  }

  private static Set<String> publishedTwice(Map<String, Integer> times) {
    Set<String> twice = new TreeSet<>();
    times.forEach((id, n) -> {
      if (n == 2) {
        twice.add(id);
      }
    });
    return twice;
  }

  private static Set<String> failedIds(Aggregator a) {
    return a.results().stream().filter(Result::hasError).map(Result::getTaskId)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** Waits until the experiment's {@code n} tasks all have a successful result. */
  private static void awaitNoErrors(Aggregator a, int n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < deadline && !(a.uniqueCount() == n && failedIds(a).isEmpty())) {
      Thread.sleep(50);
    }
    assertThat(failedIds(a)).as("tasks still failed").isEmpty();
    assertThat(a.uniqueCount()).isEqualTo(n);
  }

  /** How often each task id of {@code experiment} was published to {@code topic}. */
  private Map<String, Integer> publishedTimes(String topic, String experiment) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    Map<String, Integer> times = new HashMap<>();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = c.partitionsFor(topic, Duration.ofSeconds(10)).stream()
          .map(i -> new TopicPartition(topic, i.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(10));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        assertThat(System.nanoTime()).as("reading " + topic).isLessThan(deadline);
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
          if (r.key() != null && r.key().startsWith(experiment + "/")) {
            times.merge(r.key(), 1, Integer::sum);
          }
        }
      }
    }
    return times;
  }

  private static JsonNode lastJson(String out) throws Exception {
    List<String> lines = new ArrayList<>(out.lines().filter(l -> l.startsWith("{")).toList());
    return new ObjectMapper().readTree(lines.get(lines.size() - 1));
  }
}
