package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph6;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.GraphPair;
import io.expresso.wl.WlMethods;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class TaskProcessorTest {

  private final TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "w1", TaskObserver.NONE);
  private final DeviceSlot cpu = new DeviceSlot("cpu", 0);

  private static ConsumerRecord<String, byte[]> record(TaskKind kind, String key, byte[] value) {
    return TaskRecords.of(kind, 3, 17L, key, value);
  }

  private static PairTask pair(GraphPair p, String method, String g, String h) {
    return PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/" + method + "/" + p.index())).setSuiteId("builtin")
        .setPairIndex(p.index()).setCategory(p.category()).setGraphFirst(g).setGraphSecond(h).setMethod(method).build();
  }

  @Test
  void baselinePairResultsAgreeWithTheMethodAndCarryProvenance() throws Exception {
    List<GraphPair> pairs = BuiltinSuite.generate().pairs().toList();
    int distinguished = 0;
    for (GraphPair p : pairs.subList(0, 40)) {
      PairTask t = pair(p, "3-wl", Graph6.encode(p.first()), Graph6.encode(p.second()));
      Outcome o = processor.process(record(TaskKind.PAIR, t.getHeader().getTaskId(), t.toByteArray()), cpu);
      assertThat(o.failed()).isFalse();
      assertThat(o.records()).hasSize(1);
      Result r = Result.parseFrom(o.records().get(0).value());
      assertThat(o.records().get(0).topic()).isEqualTo(Topics.RESULTS);
      assertThat(o.records().get(0).key()).isEqualTo(t.getHeader().getTaskId());
      boolean expected = WlMethods.byName("3-wl").distinguishes(p.first(), p.second());
      assertThat(r.getPair().getDistinguished()).as("pair %d", p.index()).isEqualTo(expected);
      distinguished += expected ? 1 : 0;
      assertThat(r.getPair().getCategory()).isEqualTo(p.category());
      assertThat(r.getProvenance().getWorkerId()).isEqualTo("w1");
      assertThat(r.getProvenance().getDevice()).isEqualTo("cpu:0");
      assertThat(r.getProvenance().getOffset()).isEqualTo(17L);
      assertThat(Versions.parse(r.getProvenance().getVersions())).containsKeys("kafka-clients", "pekko", "protobuf", "java");
    }
    assertThat(distinguished).as("3-WL separates some of the first 40 built-in pairs").isPositive();
  }

  @Test
  void garbageBytesBecomeAnErrorResultAndADeadLetter() throws Exception {
    byte[] garbage = {(byte) 0xff, (byte) 0xff, 0x01, 0x02, (byte) 0x9c};
    Outcome o = processor.process(record(TaskKind.PAIR, "bad-1", garbage), cpu);
    assertThat(o.failed()).isTrue();
    assertThat(o.result().getError().getReason()).isEqualTo(TaskFailure.UNDECODABLE);
    assertThat(o.result().getTaskId()).isEqualTo("bad-1");
    ProducerRecord<String, byte[]> dead = o.records().get(1);
    assertThat(dead.topic()).isEqualTo(Topics.DEAD_LETTERS);
    assertThat(dead.value()).isEqualTo(garbage);
    assertThat(new String(dead.headers().lastHeader(Topics.HEADER_REASON).value(), StandardCharsets.UTF_8))
        .isEqualTo("undecodable");
    assertThat(new String(dead.headers().lastHeader(Topics.HEADER_SOURCE).value(), StandardCharsets.UTF_8))
        .isEqualTo(Topics.TASKS + "/3@17");
  }

  @Test
  void malformedGraph6NamesTheFieldAndPair() {
    GraphPair p = BuiltinSuite.generate().pairs().findFirst().orElseThrow();
    PairTask t = pair(p, "1-wl", Graph6.encode(p.first()), "~~~not graph6");
    Outcome o = processor.process(record(TaskKind.PAIR, t.getHeader().getTaskId(), t.toByteArray()), cpu);
    assertThat(o.result().getError().getReason()).isEqualTo(TaskFailure.INVALID_GRAPH6);
    assertThat(o.result().getError().getMessage()).contains("graph_second").contains("pair " + p.index());
    assertThat(o.records()).extracting(ProducerRecord::topic).containsExactly(Topics.RESULTS, Topics.DEAD_LETTERS);
  }

  @Test
  void unknownModelListsWhatTheWorkerRuns() {
    GraphPair p = BuiltinSuite.generate().pairs().findFirst().orElseThrow();
    PairTask t = pair(p, "gin-xl", Graph6.encode(p.first()), Graph6.encode(p.second()));
    Outcome o = processor.process(record(TaskKind.PAIR, t.getHeader().getTaskId(), t.toByteArray()), cpu);
    assertThat(o.result().getError().getReason()).isEqualTo(TaskFailure.UNKNOWN_MODEL);
    assertThat(o.result().getError().getMessage()).contains("gin-xl").contains("1-wl");
  }

  @Test
  void injectedExceptionAndNanAreErrorsNotCrashes() {
    for (String fail : List.of("exception", "nan")) {
      SyntheticTask t = SyntheticTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/s/" + fail)).setFail(fail).build();
      Outcome o = processor.process(record(TaskKind.SYNTHETIC, t.getHeader().getTaskId(), t.toByteArray()), cpu);
      assertThat(o.result().getError().getReason()).isEqualTo(fail);
      assertThat(o.records()).hasSize(2);
    }
  }

  @Test
  void syntheticWorkRunsForRoughlyTheRequestedTime() throws Exception {
    SyntheticTask t = SyntheticTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/s/1")).setWorkMs(20).build();
    Outcome o = processor.process(record(TaskKind.SYNTHETIC, t.getHeader().getTaskId(), t.toByteArray()), cpu);
    assertThat(o.failed()).isFalse();
    assertThat(o.result().getSynthetic().getIterations()).isPositive();
    assertThat(o.result().getProvenance().getComputeSeconds()).isGreaterThanOrEqualTo(0.020);
  }

  @Test
  void versionsLineParsesBackToTheMap() {
    java.util.Map<String, String> all = Versions.all(java.util.Optional.empty());
    assertThat(Versions.parse(Versions.line(all))).isEqualTo(all);
    assertThat(Versions.parse("  a/1   b/2.0/rc junk ")).containsExactly(java.util.Map.entry("a", "1"), java.util.Map.entry("b", "2.0/rc"));
  }
}
