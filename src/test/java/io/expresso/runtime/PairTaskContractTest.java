package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.expresso.graph.Graph6;
import io.expresso.graph.Graph;
import io.expresso.model.ModelSpec;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Relabelings;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.runtime.kafka.Topics;
import io.expresso.stats.Threshold;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.GraphPair;
import io.expresso.train.RelabelingDraw;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The protobuf contract, checked end to end: a pair task with every field set, run through the
 * real {@link TaskProcessor} with a small GIN, gives a result that records each field. The check
 * walks the descriptor of {@link PairTask}, so a field added to tasks.proto later fails this test
 * until the worker honours it and the result records it (or it is listed below with a reason).
 */
class PairTaskContractTest {

  private static final int Q = 8;

  /** Task fields recorded in the result elsewhere than under the same path in {@link PairResult}. */
  private static final Map<String, Function<Result, Object>> RECORDED_ELSEWHERE = Map.of(
      "header.task_id", Result::getTaskId,
      "header.experiment_id", Result::getExperimentId,
      "header.published_at_ms", r -> r.getProvenance().getPublishedAtMs(),
      "header.publisher", r -> r.getProvenance().getPublisher(),
      "relabelings", r -> r.getPair().getRelabelingsGiven());

  /** Task fields the result deliberately does not echo, and why. */
  private static final Map<String, String> NOT_RECORDED = Map.of(
      "graph_first", "the pair's input (up to kilobytes of graph6 per result); suite_id and pair_index name it",
      "graph_second", "the pair's input (up to kilobytes of graph6 per result); suite_id and pair_index name it");

  @Test
  void aPairTaskWithEveryFieldSetGivesAResultThatRecordsEachOfThem() throws Exception {
    GraphPair p = BuiltinSuite.generate().pairs().filter(x -> x.index() > 0).findFirst().orElseThrow(); // 0 reads as unset
    io.expresso.suite.Relabelings shipped = RelabelingDraw.forPair(p, Q, 11);
    PairTask task = PairTask.newBuilder()
        .setHeader(TaskHeader.newBuilder().setTaskId("contract/gin/0").setExperimentId("contract")
            .setPublishedAtMs(1_700_000_000_000L).setPublisher("PairTaskContractTest"))
        .setSuiteId("builtin").setPairIndex(p.index()).setCategory(p.category())
        .setGraphFirst(Graph6.encode(p.first())).setGraphSecond(Graph6.encode(p.second()))
        .setRelabelings(Relabelings.newBuilder().addAllFirst(encode(shipped.first()))
            .addAllSecond(encode(shipped.second())).addAllReliabilityFirst(encode(shipped.reliabilityFirst()))
            .addAllReliabilitySecond(encode(shipped.reliabilitySecond())))
        // the full spec in its canonical form, so that the recorded spec reads the same
        .setMethod(ModelSpec.parse("gin:layers=2,hidden=8,d=4").toText())
        // every setting away from its default, so that a default in the result cannot pass for it
        .setTraining(TrainingSettings.newBuilder().setEpochs(2).setLearningRate(0.002).setBatchSize(8)
            .setWeightDecay(0.0003).setLossThreshold(0.05).setSchedule("plateau:factor=0.5,patience=3,min-lr=1.0E-5"))
        .setRpc(RpcSettings.newBuilder().setQ(Q).setAlpha(0.25).setThresholdMode("rapc").setConvention("hotelling"))
        .setSeed(7)
        .build();

    TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "contract-worker", TaskObserver.NONE);
    Outcome o = processor.process(TaskRecords.of(TaskKind.PAIR, 2, 40L, "contract/gin/0", task.toByteArray()),
        new DeviceSlot("cpu", 0), new Cancellation(), 2);
    assertThat(o.failed()).as("%s", o.result().getError().getMessage()).isFalse();
    Result r = Result.parseFrom(o.records().get(0).value());

    // every field of the task, walked from its descriptor: set in the task, recorded in the result
    List<String> checked = new ArrayList<>();
    for (Map.Entry<String, Object> leaf : leaves(task, "").entrySet()) {
      String path = leaf.getKey();
      if (NOT_RECORDED.containsKey(path)) {
        checked.add(path);
        continue;
      }
      Object expected = path.equals("relabelings") ? true : leaf.getValue();
      Object recorded = RECORDED_ELSEWHERE.containsKey(path) ? RECORDED_ELSEWHERE.get(path).apply(r)
          : at(r.getPair(), path);
      assertThat(recorded).as("task field %s: the result must record it (or list it in NOT_RECORDED with a reason)", path)
          .isEqualTo(expected);
      checked.add(path);
    }
    assertThat(checked).as("fields checked").contains("rpc.alpha", "rpc.threshold_mode", "rpc.convention", "rpc.q",
        "training.epochs", "method", "seed", "header.task_id");
    assertThat(RECORDED_ELSEWHERE.keySet()).as("exceptions name real fields").allMatch(checked::contains);
    assertThat(NOT_RECORDED.keySet()).as("exceptions name real fields").allMatch(checked::contains);

    // the settings were honoured, not only echoed: RAPC at α = 0.25 draws 3 groups and its
    // threshold is an observed T², not RPC's quantile
    PairResult pair = r.getPair();
    assertThat(pair.getRapcGroups()).isEqualTo(Threshold.rapcGroupsFor(0.25)).isEqualTo(3);
    assertThat(pair.getThreshold()).isNotEqualTo(Threshold.rpc(Q, 4, 0.25).value());

    // provenance: who, where, which code and libraries, which attempt
    Provenance prov = r.getProvenance();
    assertThat(prov.getWorkerId()).isEqualTo("contract-worker");
    assertThat(prov.getDevice()).isEqualTo("cpu:0");
    assertThat(prov.getTaskKind()).isEqualTo("pair");
    assertThat(prov.getTopic() + "/" + prov.getPartition() + "@" + prov.getOffset()).isEqualTo(Topics.TASKS + "/2@40");
    assertThat(prov.getAttempt()).isEqualTo(2);
    assertThat(prov.getRevision()).isEqualTo(Versions.revision()).isNotEmpty();
    Map<String, String> versions = Versions.parse(prov.getVersions());
    assertThat(versions).containsKeys("expresso", "djl", "pytorch", "kafka-clients", "pekko", "protobuf", "java");
    assertThat(versions.get("djl")).as("DJL version filled in at build time").matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(versions.get("pytorch")).as("the PyTorch this process loaded: the bundled CPU library")
        .isEqualTo(Versions.bundledPytorch() + "+cpu");
    assertThat(prov.getPrecision()).isEqualTo("fp32");
    assertThat(prov.getIntraOpThreads()).as("the threads the engine summed with")
        .isEqualTo(ai.djl.pytorch.jni.JniUtils.getNumThreads()).isPositive();
    assertThat(prov.getStartedAtMs()).isPositive();
    assertThat(prov.getFinishedAtMs()).isGreaterThanOrEqualTo(prov.getStartedAtMs());
  }

  @Test
  void unsetSettingsAreRecordedAsTheDefaultsThatWereUsed() throws Exception {
    GraphPair p = BuiltinSuite.generate().pairs().findFirst().orElseThrow();
    PairTask task = PairTask.newBuilder()
        .setHeader(TaskHeader.newBuilder().setTaskId("contract/defaults").setExperimentId("contract"))
        .setGraphFirst(Graph6.encode(p.first())).setGraphSecond(Graph6.encode(p.second()))
        .setMethod("gin:layers=1,hidden=4,d=4").setTraining(TrainingSettings.newBuilder().setEpochs(1)).build();
    TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE);
    Outcome o = processor.process(TaskRecords.of(TaskKind.PAIR, 0, 0L, "contract/defaults", task.toByteArray()),
        new DeviceSlot("cpu", 0));
    assertThat(o.failed()).as("%s", o.result().getError().getMessage()).isFalse();
    PairResult pair = Result.parseFrom(o.records().get(0).value()).getPair();
    assertThat(pair.getRpc()).isEqualTo(RpcSettings.newBuilder().setQ(32).setAlpha(0.05).setThresholdMode("rpc")
        .setConvention("brec").build());
    assertThat(pair.getTraining().getBatchSize()).isEqualTo(32);
    assertThat(pair.getTraining().getLearningRate()).isEqualTo(1e-4);
    assertThat(pair.getRapcGroups()).isZero();
    assertThat(pair.getRelabelingsGiven()).isFalse();
    assertThat(pair.getThreshold()).isEqualTo(Threshold.rpc(32, 4, 0.05).value());
  }

  /**
   * Every leaf field of {@code m} by dotted path, asserting that each is set: message fields are
   * walked into, except {@code relabelings} (an input, recorded as whether it was given).
   */
  private static Map<String, Object> leaves(Message m, String prefix) {
    Map<String, Object> out = new LinkedHashMap<>();
    Descriptor d = m.getDescriptorForType();
    for (FieldDescriptor f : d.getFields()) {
      String path = prefix + f.getName();
      boolean set = f.isRepeated() ? m.getRepeatedFieldCount(f) > 0 : m.hasField(f);
      assertThat(set).as("the contract test's task must set %s (a field added to tasks.proto?)", path).isTrue();
      if (f.getType() == FieldDescriptor.Type.MESSAGE && !f.isRepeated() && !path.equals("relabelings")) {
        Message sub = (Message) m.getField(f);
        for (FieldDescriptor g : sub.getDescriptorForType().getFields()) {
          boolean subSet = g.isRepeated() ? sub.getRepeatedFieldCount(g) > 0 : sub.hasField(g);
          assertThat(subSet).as("the contract test's task must set %s.%s (a field added to tasks.proto?)", path,
              g.getName()).isTrue();
        }
        out.putAll(leaves(sub, path + "."));
      } else {
        out.put(path, m.getField(f));
      }
    }
    return out;
  }

  /** The field at a dotted path of {@code m}, or a note that it has none there. */
  private static Object at(Message m, String path) {
    int dot = path.indexOf('.');
    String name = dot < 0 ? path : path.substring(0, dot);
    FieldDescriptor f = m.getDescriptorForType().findFieldByName(name);
    if (f == null) {
      return "<no field " + name + " in " + m.getDescriptorForType().getName() + ">";
    }
    return dot < 0 ? m.getField(f) : at((Message) m.getField(f), path.substring(dot + 1));
  }

  private static List<String> encode(List<Graph> graphs) {
    return graphs.stream().map(Graph6::encode).toList();
  }
}
