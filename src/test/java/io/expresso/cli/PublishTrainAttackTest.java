package io.expresso.cli;

import io.expresso.robust.fleet.StudyTasks;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.attack.PerturbationSpace;
import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph6;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.Result;
import io.expresso.robust.AttackJob;
import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.robust.Scale;
import io.expresso.robust.StoredModel;
import io.expresso.robust.StudyJobs;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.BrokerAndWorker;
import io.expresso.testing.Integration;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code publish train}, {@code publish attack} and {@code results} run in-process against a real
 * embedded broker and worker: a tiny model trained, its checkpoint found in expresso.models and
 * attacked, the attack checked against brute-force counts; bad usage and unknown checkpoints.
 */
@Integration
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the training first, then the light checks
class PublishTrainAttackTest {

  @RegisterExtension final ConsoleCapture console = new ConsoleCapture();

  @RegisterExtension static final BrokerAndWorker CLUSTER = new BrokerAndWorker("cpu:1");
  private String bootstrap;

  @BeforeAll
  void bootstrap() {
    bootstrap = CLUSTER.bootstrap();
  }

  @Test
  @Order(1)
  @Timeout(240)
  void trainThenAttackTheCheckpointAndReadBothBack() throws Exception {
    String key = "pub/" + io.expresso.robust.StudyJobs.resolveSpec("ppgn", io.expresso.count.Pattern.TRIANGLE, io.expresso.robust.Scale.TINY)
        + "/triangle/er-0.3/s0";
    assertThat(Main.execute("publish", "train", "--bootstrap", bootstrap, "--experiment", "pub", "--model", "ppgn",
        "--pattern", "triangle", "--scale", "tiny", "--seeds", "0")).as(console.err()).isZero();
    assertThat(console.out()).contains("published 1 train task").contains("\n  " + key + "\n");

    assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", "pub", "--wait", "1",
        "--timeout", "180")).as(console.err()).isZero();
    assertThat(console.out()).contains("train tasks: 1 (0 errors)").contains("test l1").contains(key);

    JsonNode trained = json("pub").get("train");
    assertThat(trained).hasSize(1);
    JsonNode t = trained.get(0);
    assertThat(t.get("checkpoint").asText()).isEqualTo(key);
    String spec = t.get("model").asText();
    assertThat(spec).startsWith("ppgn:").contains("hidden=16", "layers=2"); // the tiny scale's width and depth
    assertThat(t.get("epochs").asInt()).isPositive();
    assertThat(t.get("test_l1").asDouble()).isGreaterThanOrEqualTo(0);
    int correct = t.get("correct_test").asInt();
    // 20 epochs of PPGN count triangles on 10-vertex ER graphs well; without correct graphs nothing is attacked
    assertThat(correct).as("test graphs counted right").isPositive();

    try (KafkaModelStore store = new KafkaModelStore(bootstrap, "test")) {
      StoredModel m = store.describe(key).orElseThrow();
      assertThat(m.spec()).isEqualTo(spec);
      assertThat(m.pattern()).isEqualTo(Pattern.TRIANGLE);
      assertThat(m.trainedBy()).hasValueSatisfying(j -> {
        assertThat(j.scale()).isEqualTo(Scale.TINY);
        assertThat(j.dataset()).isEqualTo("er-0.3");
      });
    }

    assertThat(Main.execute("publish", "attack", "--bootstrap", bootstrap, "--experiment", "pub", "--checkpoint", key,
        "--space", "p,pc", "--beam-width", "2")).as(console.err()).isZero();
    assertThat(console.out()).contains("published 2 attack tasks on " + key)
        .contains("attack:" + key + "/attack-any/beam-2").contains("attack:" + key + "/attack-count/beam-2");

    assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", "pub", "--wait", "3",
        "--timeout", "180")).as(console.err()).isZero();
    assertThat(console.out()).contains("attack tasks: 2 (0 errors)").contains("budgets (flips)");

    JsonNode attacks = json("pub").get("attack");
    assertThat(attacks).hasSize(2);
    int expectedAttacked = Math.min(correct, Scale.TINY.attacked());
    for (JsonNode a : attacks) {
      assertThat(a.get("checkpoint").asText()).isEqualTo(key);
      assertThat(a.get("model").asText()).isEqualTo(spec);
      assertThat(a.get("beam_width").asInt()).isEqualTo(2);
      assertThat(a.get("attacked").asInt()).isEqualTo(expectedAttacked);
      assertThat(a.get("budgets")).hasSize(4);
      assertThat(a.get("nr").asDouble()).isBetween(0.0, 1.0);
      // each budget judges the graph its own search returned (the paper's Alg. 1), so a larger
      // budget need not fool as many
      for (JsonNode f : a.get("fooled")) {
        assertThat(f.asInt()).isBetween(0, expectedAttacked);
      }
      assertThat(a.get("nr_transfer").isNull()).as("no transfer models, so no transfer AUC").isTrue();
    }
    // The attacked graphs are real test graphs the model counts right: check against brute force.
    try (Aggregator agg = new Aggregator(bootstrap, "pub").start()) {
      assertThat(agg.awaitCaughtUp(Duration.ofSeconds(60))).isTrue();
      List<Result> rs = agg.results().stream().filter(Result::hasAttack).toList();
      assertThat(rs).hasSize(2);
      for (Result r : rs) {
        assertThat(r.getAttack().getOutcomesList()).hasSize(expectedAttacked);
        for (int b = 0; b < r.getAttack().getBudgetsCount(); b++) {
          int within = b;
          long fooled = r.getAttack().getOutcomesList().stream().filter(g -> g.getAdversarial(within)).count();
          assertThat(fooled).isEqualTo(Math.round(r.getAttack().getSuccessRate(b) * expectedAttacked));
        }
        for (GraphOutcome g : r.getAttack().getOutcomesList()) {
          long truth = InducedCounts.count(Graph6.decode(g.getGraph()), Pattern.TRIANGLE);
          assertThat(g.getTrueCount()).isEqualTo((double) truth);
          assertThat(Math.round(g.getPrediction())).isEqualTo(truth);
        }
      }
    }
  }

  @Test
  @Order(2)
  @Timeout(120)
  void anUnknownCheckpointFailsInThePublisherAndAsAnErrorResultInTheWorker() throws Exception {
    console.resetErr();
    assertThat(Main.execute("publish", "attack", "--bootstrap", bootstrap, "--experiment", "nokey",
        "--checkpoint", "nokey/ppgn/triangle/er-0.3/s9")).isEqualTo(1);
    List<String> ours = console.err().lines().filter(l -> l.startsWith("expresso: ")).toList();
    assertThat(ours).as(console.err()).singleElement().asString()
        .startsWith("expresso: error: checkpoint 'nokey/ppgn/triangle/er-0.3/s9' is not in " + Topics.MODELS);
    assertThat(json("nokey").get("unique_results").asInt()).isZero();

    // Published anyway (bypassing the check, as a checkpoint deleted in between would be): the
    // worker answers with an invalid-task error result naming the key, and keeps serving.
    StoredModel ghost = new StoredModel("nokey/ppgn/triangle/er-0.3/s9", "ppgn:hidden=16,layers=2", Pattern.TRIANGLE,
        Optional.empty());
    AttackJob job = StudyJobs.attack(ghost, PerturbationSpace.ANY, Scale.TINY, "er-0.3", List.of(), 0, 0, null);
    try (Publisher p = new Publisher(bootstrap)) {
      p.send(StudyJobs.taskId(job), StudyTasks.attackTask("nokey", job));
      p.flush();
    }
    try (Aggregator agg = new Aggregator(bootstrap, "nokey").start()) {
      assertThat(agg.awaitUnique(1, Duration.ofSeconds(60))).isTrue();
      Result r = agg.results().get(0);
      assertThat(r.getError().getReason()).isEqualTo("invalid-task");
      assertThat(r.getError().getMessage()).contains("model 'nokey/ppgn/triangle/er-0.3/s9' is not in the model store");
    }
  }

  @Test
  @Order(3)
  void badUsageIsExitTwoWithOneLineNamingTheOption() {
    String b = "127.0.0.1:1"; // never contacted: usage is checked first
    assertUsage("unknown scale 'huge'", "publish", "train", "--bootstrap", b, "--experiment", "e", "--model", "ppgn",
        "--pattern", "triangle", "--scale", "huge");
    assertUsage("--seeds '3-1' runs backwards", "publish", "train", "--bootstrap", b, "--experiment", "e",
        "--model", "ppgn", "--pattern", "triangle", "--seeds", "3-1");
    assertUsage("unknown dataset 'cora'", "publish", "train", "--bootstrap", b, "--experiment", "e",
        "--model", "ppgn", "--pattern", "triangle", "--dataset", "cora");
    assertUsage("unknown pattern", "publish", "train", "--bootstrap", b, "--experiment", "e", "--model", "ppgn",
        "--pattern", "pentagon");
    assertUsage("--space: unknown perturbation space 'diagonal'", "publish", "attack", "--bootstrap", b,
        "--experiment", "e", "--checkpoint", "k", "--space", "diagonal");
    assertUsage("--budgets must increase", "publish", "attack", "--bootstrap", b, "--experiment", "e",
        "--checkpoint", "k", "--budgets", "10%,5%");
    assertUsage("--budgets: '150%' is not in (0, 1]", "publish", "attack", "--bootstrap", b, "--experiment", "e",
        "--checkpoint", "k", "--budgets", "150%");
    assertUsage("--beam-width 0 outside 1..1000", "publish", "attack", "--bootstrap", b, "--experiment", "e",
        "--checkpoint", "k", "--beam-width", "0");
    assertUsage("Missing required option: '--checkpoint=KEY'", "publish", "attack", "--bootstrap", b,
        "--experiment", "e");
  }

  @Test
  @Order(4)
  void helpNamesTheOptions() {
    String before = console.out();
    assertThat(Main.execute("publish", "train", "--help")).isZero();
    assertThat(Main.execute("publish", "attack", "--help")).isZero();
    assertThat(console.out().substring(before.length()))
        .contains("--model", "--pattern", "--scale", "--dataset", "--seeds")
        .contains("--checkpoint", "--space", "--budgets", "--beam-width", "--transfer-to");
  }

  private void assertUsage(String expected, String... args) {
    console.resetErr();
    assertThat(Main.execute(args)).as(String.join(" ", args)).isEqualTo(2);
    // other tests' stray log lines (e.g. DJL's finalizer warnings) may share stderr: judge ours only
    List<String> ours = console.err().lines().filter(l -> l.startsWith("expresso: ")).toList();
    assertThat(ours).as(console.err()).singleElement().asString().contains(expected);
  }

  /** {@code results --json} of an experiment, parsed (what it printed; the capture spans the class's tests). */
  private JsonNode json(String experiment) throws Exception {
    String before = console.out();
    assertThat(Main.execute("results", "--bootstrap", bootstrap, "--experiment", experiment, "--json")).isZero();
    return new ObjectMapper().readTree(console.out().substring(before.length()).strip());
  }
}
