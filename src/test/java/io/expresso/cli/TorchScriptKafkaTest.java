package io.expresso.cli;

import io.expresso.runtime.TaskMessages;
import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.model.TorchScriptFixtures;
import io.expresso.model.TorchScriptSpec;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskFailure;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.SuiteSpecs;
import io.expresso.testing.Integration;
import io.expresso.testing.SharedData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's TorchScript module through a real embedded broker: {@code publish brec --model
 * torchscript:FILE} stores it once in expresso.models and a worker started with user modules
 * allowed trains and judges it; a module that does not fit and a worker without the flag answer
 * with error results naming what is wrong, and the worker goes on serving.
 */
@Integration
@Timeout(300)
class TorchScriptKafkaTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  private EmbeddedBroker broker;
  private String bootstrap;
  private Worker worker;

  @BeforeEach
  void startBroker() {
    broker = EmbeddedBroker.start(0, null);
    bootstrap = broker.bootstrap();
    Topics.ensure(bootstrap, 2);
  }

  @AfterEach
  void stop() {
    if (worker != null) {
      worker.close();
    }
    broker.close();
  }

  private void startWorker(boolean allowUserModules) {
    EvaluatorRegistry r = EvaluatorRegistry.defaults();
    worker = Worker.start(Worker.Settings.of(bootstrap, DeviceSlot.parse("cpu:1")),
        allowUserModules ? r.allowUserModules() : r, TaskObserver.NONE);
  }

  /** The four-pair excerpt under BREC's pair numbers (0 Basic, 60 and 110 Regular, 160 Extension). */
  private static String excerpt() {
    return "brec:" + SharedData.require("data/brec-excerpt/brec_excerpt.npy") + "#indices=0,60,110,160";
  }

  private List<Result> results(String experiment, int n) throws InterruptedException {
    try (Aggregator a = new Aggregator(bootstrap, experiment).start()) {
      assertThat(a.awaitUnique(n, Duration.ofSeconds(240))).as("%d results of %s", n, experiment).isTrue();
      return new ArrayList<>(a.results());
    }
  }

  @Test
  void aPublishedModuleIsStoredOnceAndTrainedByAnAllowingWorker(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("gin.pt");
    Files.write(file, TorchScriptFixtures.bytes("gin.pt"));
    TorchScriptSpec spec = TorchScriptFixtures.spec("gin.pt");
    startWorker(true);
    assertThat(Main.execute("publish", "brec", "--bootstrap", bootstrap, "--experiment", "ts-ok", "--suite",
        excerpt(), "--pairs", "110-160", "--model", "torchscript:" + file, "--epochs", "3")).as(console.err()).isZero();
    assertThat(console.out()).contains("stored TorchScript module " + spec.location())
        .contains("published 2 pair tasks (2 pairs x 1 seeds, " + spec.toText() + ")");
    for (Result r : results("ts-ok", 2)) {
      assertThat(r.hasError()).as("%s", r.getError().getMessage()).isFalse();
      assertThat(r.getPair().getMethod()).isEqualTo(spec.toText());
      assertThat(r.getPair().getEpochs()).isBetween(1, 3);
      // every BREC pair is 1-WL-equivalent: a GIN cannot tell them apart
      assertThat(r.getPair().getDistinguished() && r.getPair().getReliable()).isFalse();
    }
    try (KafkaModelStore store = new KafkaModelStore(bootstrap, "test")) {
      assertThat(store.get(spec.location())).hasValueSatisfying(b -> assertThat(b).isEqualTo(spec.module()));
    }

    // a module that does not fit, stored and named as a publisher that skipped the check would:
    // an error result naming the problem, and the next task is served
    TorchScriptSpec nan = TorchScriptFixtures.spec("nan-output.pt");
    try (KafkaModelStore store = new KafkaModelStore(bootstrap, "test"); Publisher p = new Publisher(bootstrap)) {
      store.putModule(nan);
      var suite = SuiteSpecs.load(excerpt());
      TrainingSettings three = TrainingSettings.newBuilder().setEpochs(3).build();
      for (String method : List.of(nan.toText(), spec.toText())) {
        PairTask t = TaskMessages.pairTasks("ts-bad", suite, method, new long[] {0}, three, null).get(0);
        p.send(t.getHeader().getTaskId(), t);
        p.flush();
      }
    }
    List<Result> bad = results("ts-bad", 2);
    Result nanResult = bad.stream().filter(r -> r.getTaskId().contains(nan.sha256())).findFirst().orElseThrow();
    assertThat(nanResult.getError().getReason()).isEqualTo(TaskFailure.INVALID_TASK);
    assertThat(nanResult.getError().getMessage()).contains("forward returned NaN");
    Result after = bad.stream().filter(r -> r.getTaskId().contains(spec.sha256())).findFirst().orElseThrow();
    assertThat(after.hasError()).as("%s", after.getError().getMessage()).isFalse();

    // publish refuses a module that does not fit before sending anything
    Path wrong = dir.resolve("wrong.pt");
    Files.write(wrong, TorchScriptFixtures.bytes("wrong-signature.pt"));
    assertThat(Main.execute("publish", "brec", "--bootstrap", bootstrap, "--experiment", "ts-wrong", "--suite",
        excerpt(), "--pairs", "0", "--model", "torchscript:" + wrong)).isEqualTo(2);
    assertThat(console.err()).contains("forward does not take the sparse signature");
  }

  @Test
  void aWorkerWithoutTheFlagAnswersWithAnErrorResultAndKeepsServing(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("gin.pt");
    Files.write(file, TorchScriptFixtures.bytes("gin.pt"));
    startWorker(false);
    assertThat(Main.execute("publish", "brec", "--bootstrap", bootstrap, "--experiment", "ts-refused", "--suite",
        excerpt(), "--pairs", "0", "--model", "torchscript:" + file, "--epochs", "2")).as(console.err()).isZero();
    Result refused = results("ts-refused", 1).get(0);
    assertThat(refused.getError().getReason()).isEqualTo(TaskFailure.INVALID_TASK);
    assertThat(refused.getError().getMessage()).contains("does not run user modules").contains("--allow-user-models");
    assertThat(Main.execute("publish", "brec", "--bootstrap", bootstrap, "--experiment", "ts-gin", "--suite",
        excerpt(), "--pairs", "0", "--model", "gin:layers=2,hidden=16", "--epochs", "2")).as(console.err()).isZero();
    Result gin = results("ts-gin", 1).get(0);
    assertThat(gin.hasError()).as("%s", gin.getError().getMessage()).isFalse();
  }
}
