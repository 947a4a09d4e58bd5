package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.metrics.Metrics;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticResult;
import io.expresso.proto.v1.TaskError;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import io.expresso.web.LiveService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Results are produced at least once, so a task may have several result records. Two records per
 * task id (success twice, error then success, success then error, error twice) are produced
 * without a transaction into a real embedded broker's results topic, as a worker lost between
 * producing and acknowledging would leave them; every reader counts each task once and says how
 * many duplicate records it read: {@code results} (table, JSON, report files), and the live page
 * and {@code /metrics} of {@code up}/{@code watch} (their summaries-only aggregator).
 */
@Integration
@Timeout(180)
class DuplicateResultsTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  private static EmbeddedBroker broker;

  @BeforeAll
  static void produceDuplicates() throws Exception {
    broker = EmbeddedBroker.start(0, null);
    Topics.ensure(broker.bootstrap(), 2);
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      for (Result r : List.of(
          pair("dup/twice"), pair("dup/twice"),
          error("dup/fixed", "exception"), synthetic("dup/fixed"),
          synthetic("dup/broke"), error("dup/broke", "exception"),
          error("dup/failing", "exception"), error("dup/failing", "nan"),
          synthetic("dup/once"),
          synthetic("other/x").toBuilder().setExperimentId("other").build(),
          synthetic("other/x").toBuilder().setExperimentId("other").build())) {
        producer.send(new ProducerRecord<>(Topics.RESULTS, r.getTaskId(), r.toByteArray())).get();
      }
    }
  }

  @AfterAll
  static void stop() {
    broker.close();
  }

  @Test
  void resultsCountsEachTaskOnceAndSaysHowManyDuplicateRecordsItRead(@TempDir Path out) throws Exception {
    assertThat(Main.execute("results", "--bootstrap", broker.bootstrap(), "--experiment", "dup", "--out",
        out.toString())).isZero();
    String line = "4 duplicate result records (a task id already read; each task counted once:"
        + " 2 replaced an error result, 2 ignored)";
    assertThat(console.out()).contains("experiment dup: 5 unique results, 0 duplicates in report, 1 errors", line);
    assertThat(Files.readString(out.resolve("dup.report.md"))).contains("5 unique results", line);
    assertThat(Files.readString(out.resolve("dup.report.html"))).contains(line);
    assertThat(Files.readAllLines(out.resolve("dup.results.jsonl"))).hasSize(5);

    console.resetOut();
    assertThat(Main.execute("results", "--bootstrap", broker.bootstrap(), "--experiment", "dup", "--json")).isZero();
    JsonNode j = new ObjectMapper().readTree(console.out());
    assertThat(j.get("unique_results").asInt()).isEqualTo(5);
    assertThat(j.get("errors").asInt()).as("dup/failing; dup/fixed's error was superseded").isEqualTo(1);
    assertThat(j.get("duplicate_records").asInt()).isEqualTo(4);
    assertThat(j.get("superseded_errors").asInt()).isEqualTo(2);
  }

  @Test
  void aWaitCutShortStillPrintsAndWritesWhatArrivedAndExitsOne(@TempDir Path out) throws Exception {
    assertThat(Main.execute("results", "--bootstrap", broker.bootstrap(), "--experiment", "dup", "--wait", "9",
        "--timeout", "2", "--out", out.toString())).isEqualTo(1);
    assertThat(console.out()).contains("experiment dup: 5 unique results");
    assertThat(console.err()).contains("only 5 of 9 unique results of experiment dup arrived within 2 s");
    assertThat(Files.readAllLines(out.resolve("dup.results.jsonl"))).hasSize(5);
  }

  @Test
  void theLivePageAndTheMetricsOfUpAndWatchCountEachTaskOnce() throws Exception {
    try (Metrics metrics = new Metrics()) {
      LiveService live = LiveService.start(broker.bootstrap(), "127.0.0.1", 0, metrics);
      try (Aggregator a = live.aggregator().start()) {
        assertThat(a.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
        assertThat(a.uniqueCount()).isEqualTo(6);
        assertThat(a.duplicateRecords()).isEqualTo(5);
        assertThatThrownBy(a::results).as("it keeps no results").isInstanceOf(IllegalStateException.class);

        JsonNode page = new ObjectMapper().readTree(live.state().json(System.currentTimeMillis()));
        JsonNode dup = null;
        for (JsonNode e : page.path("experiments")) {
          dup = e.path("id").asText().equals("dup") ? e : dup;
        }
        assertThat(dup).isNotNull();
        assertThat(dup.path("results").asLong()).isEqualTo(5);
        assertThat(dup.path("errors").asLong()).isEqualTo(1);
        assertThat(dup.path("kinds").path("pair").asLong()).isEqualTo(1);
        assertThat(dup.path("kinds").path("synthetic").asLong()).isEqualTo(4);
        assertThat(dup.path("configurations").get(0).path("total").path("pairs").asLong()).isEqualTo(1);

        String scrape = metrics.scrape();
        assertThat(scrape).contains(
            "expresso_result_duplicates_total{kind=\"pair\"} 1.0",
            "expresso_result_duplicates_total{kind=\"synthetic\"} 4.0",
            "expresso_experiment_tasks{kind=\"synthetic\",outcome=\"error\"} 1.0",
            "expresso_experiment_tasks{kind=\"synthetic\",outcome=\"ok\"} 4.0",
            "expresso_experiment_tasks{kind=\"pair\",outcome=\"ok\"} 1.0",
            "expresso_pairs_evaluated_total{category=\"CFI\",experiment=\"dup\",model=\"3-wl\",suite=\"builtin\"} 1.0");
      } finally {
        live.close();
      }
    }
  }

  private static Result synthetic(String taskId) {
    return Result.newBuilder().setExperimentId("dup").setTaskId(taskId)
        .setProvenance(Provenance.newBuilder().setTaskKind("synthetic").setWorkerId("w").setDevice("cpu:0"))
        .setSynthetic(SyntheticResult.newBuilder().setIterations(1)).build();
  }

  private static Result error(String taskId, String reason) {
    return Result.newBuilder().setExperimentId("dup").setTaskId(taskId)
        .setProvenance(Provenance.newBuilder().setTaskKind("synthetic").setWorkerId("w").setDevice("cpu:0"))
        .setError(TaskError.newBuilder().setReason(reason).setMessage(reason + " in " + taskId)).build();
  }

  private static Result pair(String taskId) {
    return Result.newBuilder().setExperimentId("dup").setTaskId(taskId)
        .setProvenance(Provenance.newBuilder().setTaskKind("pair").setWorkerId("w").setDevice("cpu:0"))
        .setPair(PairResult.newBuilder().setSuiteId("builtin").setCategory("CFI").setMethod("3-wl").setExact(true)
            .setDistinguished(true).setReliable(true)).build();
  }
}
