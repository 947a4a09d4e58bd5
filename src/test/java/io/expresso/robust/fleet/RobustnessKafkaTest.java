package io.expresso.robust.fleet;

import io.expresso.robust.TrainResumeTest;
import io.expresso.robust.TrainOutcome;
import io.expresso.robust.JobRunner;
import io.expresso.robust.TrainJob;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.cli.Main;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The study at scale tiny end to end through a real embedded Kafka broker and worker. */
@Integration
class RobustnessKafkaTest {

  @Test
  void tinyExperimentThroughKafkaWritesTheReport(@TempDir Path out) throws Exception {
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    // while it runs, its live page's /metrics is scraped as Prometheus would
    AtomicReference<String> trainMetrics = new AtomicReference<>();
    Thread scraper = new Thread(() -> scrapeTrainMetrics(port, trainMetrics), "scraper");
    scraper.setDaemon(true);
    scraper.start();
    System.setOut(new PrintStream(captured, true, "UTF-8"));
    try {
      code = Main.execute("experiment", "robustness", "--embedded", "--scale", "tiny", "--models", "i2gnn",
          "--patterns", "triangle", "--experiment", "it-tiny", "--out", out.toString(), "--timeout", "300",
          "--metrics-port", String.valueOf(port));
    } finally {
      System.setOut(stdout);
      scraper.interrupt();
    }
    assertThat(trainMetrics.get()).as("per-epoch train and validation l1 on the embedded run's /metrics")
        .contains("expresso_train_l1{", "split=\"validation\"", "split=\"train\"", "experiment=\"it-tiny\"");
    String text = captured.toString("UTF-8");
    System.out.println(text);
    assertThat(code).isZero();
    assertThat(text).contains("AUC of attack success", "Out of distribution");
    JsonNode json = new ObjectMapper().readTree(out.resolve("robustness.json").toFile());
    assertThat(json.get("auc")).hasSize(3);
    int attacked = 0;
    for (JsonNode row : json.get("auc")) {
      attacked += row.get("attacked").asInt();
      double nr = row.get("nr").get("mean").asDouble();
      assertThat(nr).isBetween(0.0, 1.0);
    }
    assertThat(attacked).isPositive();
    assertThat(json.get("ood")).hasSize(4);
    assertThat(Files.size(out.resolve("success-i2gnn-triangle.png"))).isPositive();
  }

  /** Keeps the last /metrics body with an {@code expresso_train_l1} sample, until interrupted. */
  private static void scrapeTrainMetrics(int port, AtomicReference<String> last) {
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build();
    while (!Thread.currentThread().isInterrupted()) {
      try {
        String body = http.send(get, HttpResponse.BodyHandlers.ofString()).body();
        if (body.contains("expresso_train_l1{")) {
          last.set(body);
        }
        Thread.sleep(100);
      } catch (java.io.IOException e) {
        // not serving yet, or already closed
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Test
  void checkpointsRoundTripThroughTheCompactedModelsTopic() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 2);
      try (KafkaModelStore a = new KafkaModelStore(broker.bootstrap(), "a")) {
        a.put("m/1", new byte[] {1, 2, 3});
        a.put("m/2", new byte[] {4});
        a.put("m/1", new byte[] {5, 6}); // the latest checkpoint per id wins
      }
      try (KafkaModelStore b = new KafkaModelStore(broker.bootstrap(), "b")) {
        assertThat(b.get("m/1")).hasValueSatisfying(v -> assertThat(v).containsExactly(5, 6));
        assertThat(b.get("m/2")).hasValueSatisfying(v -> assertThat(v).containsExactly(4));
        assertThat(b.get("m/3")).isEmpty();
      }
    }
  }

  @Test
  void aTrainJobResumesOnAnotherWorkerFromItsProgressOnTheModelsTopic() throws Exception {
    TrainJob job = TrainResumeTest.job("it-resume", 1);
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 2);
      try (KafkaModelStore a = new KafkaModelStore(broker.bootstrap(), "worker-a");
          JobRunner first = new JobRunner(a, "cpu", 1, null)) {
        TrainResumeTest.interruptAfterTwoEpochs(first, job); // worker a loses the task after epoch 2
      }
      try (KafkaModelStore b = new KafkaModelStore(broker.bootstrap(), "worker-b");
          JobRunner second = new JobRunner(b, "cpu", 1, null)) {
        assertThat(io.expresso.train.TrainingState.fromBytes(b.getProgress(job).orElseThrow()).epoch()).isEqualTo(2);
        TrainJob otherRate = new TrainJob(job.modelId(), job.spec(), job.pattern(), job.dataset(), job.scale(),
            job.seed(), null, job.testOn(), job.graphs(), job.maxEpochs(), 0.5f, 0);
        assertThat(b.getProgress(otherRate)).as("another job under the same key is not resumed").isEmpty();
        TrainOutcome o = second.train(job);
        assertThat(o.resumedFromEpoch()).isEqualTo(2);
        assertThat(o.epochs()).isEqualTo(4);
      }
      try (KafkaModelStore c = new KafkaModelStore(broker.bootstrap(), "reader")) {
        assertThat(c.get(job.modelId())).as("the checkpoint").isPresent();
        assertThat(io.expresso.train.TrainingState.fromBytes(c.getProgress(job).orElseThrow()).epoch())
            .as("the finished state, for a second delivery to resume").isEqualTo(4);
      }
    }
  }
}
