package io.expresso.runtime;

import io.expresso.model.Architecture;
import io.expresso.proto.v1.TaskHeader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphBuilder;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Relabelings;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.TrainTask;
import io.expresso.proto.v1.TrainingSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per limit: a task over it ends as an {@code over-limit} error result naming the limit
 * and the value, decided from the task's text (graph headers, settings, spec) before anything is
 * decoded or allocated.
 */
class TaskLimitsTest {

  private final DeviceSlot cpu = new DeviceSlot("cpu", 0);

  private static String cycle(int n) {
    GraphBuilder b = new GraphBuilder(n);
    for (int i = 0; i < n; i++) {
      b.addEdge(i, (i + 1) % n);
    }
    return Graph6.encode(b.build());
  }

  private static PairTask pair(String method, String g, String h) {
    return PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/t")).setMethod(method).setGraphFirst(g).setGraphSecond(h).build();
  }

  /** The error of {@code task} under {@code limits}: reason and message. */
  private String[] refusal(TaskKind kind, com.google.protobuf.Message task, TaskLimits limits) {
    TaskProcessor p = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE, TaskTimeouts.DEFAULTS, limits);
    Outcome o = p.process(TaskRecords.of(kind, 0, 0L, "e/t", task.toByteArray()), cpu);
    return new String[] {o.result().getError().getReason(), o.result().getError().getMessage()};
  }

  private void assertRefused(TaskKind kind, com.google.protobuf.Message task, TaskLimits limits, String limit, String value) {
    String[] r = refusal(kind, task, limits);
    assertThat(r[0]).as(r[1]).isEqualTo("over-limit");
    assertThat(r[1]).contains("limit " + limit + " = ").contains(" is " + value + ",");
  }

  @Test
  void aFiveCharacterSparse6DeclaringNearly33000VerticesIsRefusedBeforeDecoding() {
    String huge = ":~F~~"; // sparse6: five characters that declare n = 32767 (and no edges)
    assertThat(Graph6.declaredVertices(huge)).isGreaterThan(10_000);
    assertRefused(TaskKind.PAIR, pair("spd-wl", huge, huge), TaskLimits.DEFAULTS, "dense-vertices", String.valueOf(Graph6.declaredVertices(huge)));
    assertRefused(TaskKind.PAIR, pair("1-wl", huge, huge), TaskLimits.DEFAULTS, "vertices", String.valueOf(Graph6.declaredVertices(huge)));
  }

  @Test
  void eachVertexLimitFollowsHowTheMethodGrows() {
    String c400 = cycle(400);
    assertRefused(TaskKind.PAIR, pair("4-wl", c400, c400), TaskLimits.DEFAULTS, "cubic-vertices", "400");
    for (Architecture a : Architecture.values()) { // every dense model, whichever was added last
      if (a.dense()) {
        assertRefused(TaskKind.PAIR, pair(a.cliName(), c400, c400), TaskLimits.DEFAULTS, "model-vertices", "400");
      }
    }
    assertThat(Architecture.PPGN.dense()).isTrue();
    assertRefused(TaskKind.PAIR, pair("torchscript:sha256:00,input=dense", c400, c400), TaskLimits.DEFAULTS,
        "model-vertices", "400");
    // a sparse module on 400 vertices passes the limits and reaches the evaluator (which refuses user modules here)
    assertThat(refusal(TaskKind.PAIR, pair("torchscript:sha256:00,input=sparse", c400, c400), TaskLimits.DEFAULTS)[1])
        .contains("does not run user modules");
    assertRefused(TaskKind.PAIR, pair("3-wl", c400, c400), TaskLimits.DEFAULTS.with("dense-vertices=300"), "dense-vertices", "400");
    assertThat(refusal(TaskKind.PAIR, pair("1-wl", c400, c400), TaskLimits.DEFAULTS)[0]).as("1-WL on 400 vertices runs").isEmpty();
  }

  @Test
  void edgesAreCountedFromTheGraph6BitsWithoutDecoding() {
    String c50 = cycle(50);
    assertRefused(TaskKind.PAIR, pair("1-wl", c50, c50), TaskLimits.DEFAULTS.with("edges=49"), "edges", "50");
  }

  @Test
  void trainingSettingsAndRelabelingsAreBounded() {
    String c = cycle(8);
    PairTask base = pair("gin", c, c);
    assertRefused(TaskKind.PAIR, base.toBuilder().setTraining(TrainingSettings.newBuilder().setEpochs(1_000_000)).build(),
        TaskLimits.DEFAULTS, "epochs", "1000000");
    assertRefused(TaskKind.PAIR, base.toBuilder().setTraining(TrainingSettings.newBuilder().setBatchSize(1 << 20)).build(),
        TaskLimits.DEFAULTS, "batch-size", String.valueOf(1 << 20));
    assertRefused(TaskKind.PAIR, base.toBuilder().setRpc(RpcSettings.newBuilder().setQ(100_000)).build(),
        TaskLimits.DEFAULTS, "q", "100000");
    Relabelings.Builder r = Relabelings.newBuilder();
    for (int i = 0; i < 300; i++) {
      r.addFirst(c);
    }
    assertRefused(TaskKind.PAIR, base.toBuilder().setRelabelings(r).build(), TaskLimits.DEFAULTS, "q", "300");
  }

  @Test
  void modelWidthDepthAndSpecLengthAreBounded() {
    String c = cycle(8);
    assertRefused(TaskKind.PAIR, pair("gin:hidden=4000", c, c), TaskLimits.DEFAULTS, "hidden", "4000");
    assertRefused(TaskKind.PAIR, pair("gin:layers=60", c, c), TaskLimits.DEFAULTS, "layers", "60");
    assertRefused(TaskKind.PAIR, pair("gin:hidden=1000,layers=30", c, c), TaskLimits.DEFAULTS, "width-x-depth", "30000");
    assertRefused(TaskKind.PAIR, pair("gin:" + "x".repeat(280_000), c, c), TaskLimits.DEFAULTS, "spec-chars", "280004");
    assertRefused(TaskKind.TRAIN, TrainTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/t"))
        .setJob(io.expresso.proto.v1.TrainJob.newBuilder().setSpec("i2gnn:hidden=5000")).build(),
        TaskLimits.DEFAULTS, "hidden", "5000");
    assertRefused(TaskKind.ATTACK, AttackTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/t"))
        .setJob(io.expresso.proto.v1.AttackJob.newBuilder().setBeam(50_000)).build(),
        TaskLimits.DEFAULTS, "beam-width", "50000");
  }

  @Test
  void limitsComeFromAFileAndFlagsAndRejectNonsense(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("limits.properties");
    Files.writeString(f, "vertices = 500\nepochs=100\n");
    TaskLimits l = TaskLimits.read(f).with("epochs=50");
    assertThat(l.of("vertices")).isEqualTo(500);
    assertThat(l.of("epochs")).isEqualTo(50);
    assertThat(l.of("q")).isEqualTo(TaskLimits.DEFAULTS.of("q"));
    assertThatThrownBy(() -> TaskLimits.DEFAULTS.with("vertexes=5")).hasMessageContaining("unknown limit 'vertexes'");
    assertThatThrownBy(() -> TaskLimits.DEFAULTS.with("epochs=lots")).hasMessageContaining("not a whole number");
    assertThatThrownBy(() -> TaskLimits.DEFAULTS.with("epochs=0")).hasMessageContaining("at least 1");
  }
}
