package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code publish dataset --wait} against a real embedded broker and worker: the tasks travel
 * through expresso.tasks.dataset, the worker trains them, the command gathers the results, prints
 * the table and writes the files; a task the worker cannot run comes back as an error, exit 1.
 */
@Integration
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PublishDatasetTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  private EmbeddedBroker broker;
  private Worker worker;
  private String bootstrap;

  @BeforeAll
  void startBrokerAndWorker() throws Exception {
    broker = EmbeddedBroker.start(0, null);
    bootstrap = broker.bootstrap();
    Topics.ensure(bootstrap, 2);
    worker = Worker.start(Worker.Settings.of(bootstrap, DeviceSlot.parse("cpu:1")), EvaluatorRegistry.defaults(),
        TaskObserver.NONE);
  }

  @AfterAll
  void stop() throws Exception {
    if (worker != null) {
      worker.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  @Timeout(240)
  void cslThroughKafkaGivesChanceWithoutEncodings(@TempDir Path out) throws Exception {
    int code = Main.execute("publish", "dataset", "--bootstrap", bootstrap, "--experiment", "ds", "--dataset", "csl",
        "--models", "gin:hidden=8,layers=1", "--protocol", "quick", "--fold", "0-2", "--seeds", "0",
        "--max-epochs", "2", "--wait", "--out", out.toString());
    assertThat(code).as(console.err()).isZero();
    assertThat(console.out()).contains("published 3 dataset tasks").contains("test accuracy 10.00 ± 0.00 %")
        .contains("over 3 runs");
    assertThat(Files.readAllLines(out.resolve("ds.dataset.jsonl"))).hasSize(3);
    // results shows the same table for the experiment
    assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", "ds")).isZero();
    assertThat(console.out()).contains("gin:hidden=8,layers=1 on csl (150 graphs, 10 classes)");
  }

  @Test
  @Timeout(120)
  void aDatasetTheWorkerCannotReadIsAnErrorResult() {
    int code = Main.execute("publish", "dataset", "--bootstrap", bootstrap, "--experiment", "ds-bad",
        "--dataset", "tu:/nonexistent/MUTAG", "--models", "gin:hidden=8", "--protocol", "quick", "--fold", "0",
        "--seeds", "0", "--wait");
    assertThat(code).isEqualTo(1);
    assertThat(console.out()).contains("invalid-task").contains("MUTAG_A.txt");
  }
}
