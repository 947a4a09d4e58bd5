package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph6;
import io.expresso.graph.Graph;
import io.expresso.model.TorchScriptFixtures;
import io.expresso.model.TorchScriptSpec;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.kafka.Topics;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Pair tasks that name a user's TorchScript module by its SHA-256: run where the worker allows user
 * modules, refused with an error result naming the flag where it does not, and a module that does
 * not fit is an error result naming what is wrong; the processor goes on with the next task.
 */
class TorchScriptPairTaskTest {

  private static final Graph STAR = Graph.fromEdges(6, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5);
  private static final Graph PATH = Graph.fromEdges(6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5);

  private static PairTask task(String id, String method) {
    return PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId(id)).setSuiteId("t")
        .setPairIndex(7).setCategory("1-WL-distinguishable").setGraphFirst(Graph6.encode(STAR))
        .setGraphSecond(Graph6.encode(PATH)).setMethod(method)
        .setTraining(TrainingSettings.newBuilder().setEpochs(3)).setSeed(1).build();
  }

  private static Outcome run(EvaluatorRegistry registry, PairTask t) {
    return new TaskProcessor(registry, "w", TaskObserver.NONE)
        .process(TaskRecords.of(TaskKind.PAIR, 0, 0L, t.getHeader().getTaskId(), t.toByteArray()),
            new DeviceSlot("cpu", 0));
  }

  /** A registry whose module store holds the given fixtures under their hashes. */
  private static EvaluatorRegistry registry(boolean allowed, String... fixtures) {
    Map<String, byte[]> stored = new java.util.HashMap<>();
    for (String f : fixtures) {
      byte[] b = TorchScriptFixtures.bytes(f);
      stored.put("sha256:" + TorchScriptSpec.sha256(b), b);
    }
    EvaluatorRegistry r = EvaluatorRegistry.defaults().useModuleLookup(k -> Optional.ofNullable(stored.get(k)));
    return allowed ? r.allowUserModules() : r;
  }

  private static String method(String fixture) {
    return TorchScriptFixtures.spec(fixture).toText();
  }

  @Test
  void aWorkerThatAllowsUserModulesTrainsAndJudgesTheStoredModule() throws Exception {
    Outcome o = run(registry(true, "gin.pt"), task("e/ts", method("gin.pt")));
    assertThat(o.failed()).as("%s", o.result().getError().getMessage()).isFalse();
    Result r = Result.parseFrom(o.records().get(0).value());
    assertThat(r.getPair().getMethod()).isEqualTo(method("gin.pt"));
    assertThat(r.getPair().getEpochs()).isBetween(1, 3);
    assertThat(r.getPair().getT2Test()).isFinite().isPositive();
    assertThat(r.getPair().getTrainingGraphsPerPass()).isEqualTo(32);
  }

  @Test
  void aWorkerWithoutTheFlagAnswersWithAnErrorResultNamingItAndKeepsServing() throws Exception {
    EvaluatorRegistry r = registry(false, "gin.pt");
    Outcome refused = run(r, task("e/refused", method("gin.pt")));
    assertThat(refused.failed()).isTrue();
    assertThat(refused.result().getError().getReason()).isEqualTo(TaskFailure.INVALID_TASK);
    assertThat(refused.result().getError().getMessage()).contains("does not run user modules")
        .contains("--allow-user-models");
    PairTask gin = task("e/gin", "gin:layers=2,hidden=16");
    Outcome next = run(r, gin);
    assertThat(next.failed()).as("%s", next.result().getError().getMessage()).isFalse();
  }

  @Test
  void modulesThatDoNotFitAreErrorResultsNamingWhatIsWrong() {
    EvaluatorRegistry r = registry(true, "wrong-signature.pt", "node-output.pt", "nan-output.pt");
    assertThat(error(r, "wrong-signature.pt")).contains("forward does not take the sparse signature");
    assertThat(error(r, "node-output.pt")).contains("forward must return float[B,d], one row per graph");
    assertThat(error(r, "nan-output.pt")).contains("forward returned NaN");
    assertThat(error(r, "gin.pt")).contains("is not in expresso.models");
    Outcome file = run(r, task("e/file", "torchscript:gin.pt"));
    assertThat(file.result().getError().getMessage()).contains("workers read modules from expresso.models by key");
  }

  private static String error(EvaluatorRegistry r, String fixture) {
    Outcome o = run(r, task("e/" + fixture, method(fixture)));
    assertThat(o.failed()).isTrue();
    assertThat(o.result().getError().getReason()).isEqualTo(TaskFailure.INVALID_TASK);
    return o.result().getError().getMessage();
  }
}
