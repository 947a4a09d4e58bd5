package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.runtime.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** How the task processor ends tasks at the edges: timeouts, hand-backs, poison, bounded dead letters, faults behind a flag. */
class TaskOutcomesTest {

  private final DeviceSlot cpu = new DeviceSlot("cpu", 0);

  private static ConsumerRecord<String, byte[]> record(TaskKind kind, String key, byte[] value) {
    return TaskRecords.of(kind, 1, 5L, key, value);
  }

  private static SyntheticTask synthetic(String id, int workMs, String fault) {
    return SyntheticTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId(id)).setWorkMs(workMs).setFault(fault).build();
  }

  private static String header(ProducerRecord<String, byte[]> r, String name) {
    return r.headers().lastHeader(name) == null ? null : new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  @Test
  void aTimedOutTaskEndsAsAnErrorResultNamingItsLimit() throws Exception {
    TaskProcessor p = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE, TaskTimeouts.parse("synthetic=3s"));
    Cancellation c = new Cancellation();
    c.cancel(Cancellation.Reason.TIMEOUT);
    Outcome o = p.process(record(TaskKind.SYNTHETIC, "e/t", synthetic("e/t", 5000, "").toByteArray()), cpu, c);
    assertThat(o.handedBack()).isFalse();
    assertThat(o.result().getError().getReason()).isEqualTo("timeout");
    assertThat(o.result().getError().getMessage()).contains("limit of 3s").contains("--task-timeout synthetic=");
    assertThat(o.records()).extracting(ProducerRecord::topic).containsExactly(Topics.RESULTS, Topics.DEAD_LETTERS);
  }

  @Test
  void aTaskHandedBackLeavesNothingToProduce() {
    TaskProcessor p = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE);
    Cancellation c = new Cancellation();
    c.cancel(Cancellation.Reason.STOPPING);
    Outcome o = p.process(record(TaskKind.SYNTHETIC, "e/h", synthetic("e/h", 5000, "").toByteArray()), cpu, c);
    assertThat(o.handedBack()).isTrue();
    assertThat(o.handedBackFor()).isEqualTo(Cancellation.Reason.STOPPING);
    assertThat(o.records()).isEmpty();

    // an evaluator that gives up though nothing cancelled it (an interrupted wait): released as well
    EvaluatorRegistry gives = new EvaluatorRegistry().register(TaskKind.SYNTHETIC, new Evaluator<SyntheticTask>() {
      @Override
      public boolean accepts(SyntheticTask task) {
        return true;
      }

      @Override
      public Result.Builder evaluate(SyntheticTask task, DeviceSlot device, java.util.function.BooleanSupplier cancelled) {
        throw new java.util.concurrent.CancellationException("interrupted while waiting");
      }
    });
    Outcome interrupted = new TaskProcessor(gives, "w", TaskObserver.NONE)
        .process(record(TaskKind.SYNTHETIC, "e/i", synthetic("e/i", 0, "").toByteArray()), cpu, new Cancellation());
    assertThat(interrupted.handedBackFor()).isEqualTo(Cancellation.Reason.INTERRUPTED);
    assertThat(interrupted.records()).isEmpty();
  }

  @Test
  void aPoisonTaskIsAnErrorResultAndADeadLetterWithTheAttemptCount() throws Exception {
    TaskProcessor p = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE);
    Outcome o = p.poison(record(TaskKind.SYNTHETIC, "e/p", synthetic("e/p", 0, "crash").toByteArray()), cpu, 3);
    assertThat(o.result().getTaskId()).isEqualTo("e/p");
    assertThat(o.result().getExperimentId()).isEqualTo("e");
    assertThat(o.result().getError().getReason()).isEqualTo("poison");
    assertThat(o.result().getError().getMessage()).startsWith("poison: 3 deliveries");
    ProducerRecord<String, byte[]> dead = o.records().get(1);
    assertThat(dead.topic()).isEqualTo(Topics.DEAD_LETTERS);
    assertThat(header(dead, Topics.HEADER_REASON)).isEqualTo("poison: 3 deliveries");
    assertThat(Result.parseFrom(o.records().get(0).value()).getError().getReason()).isEqualTo("poison");
  }

  @Test
  void deadLettersAndErrorMessagesStayBoundedWhateverTheTaskSize() {
    TaskProcessor p = new TaskProcessor(EvaluatorRegistry.defaults(), "w", TaskObserver.NONE);
    PairTask huge = PairTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("e").setTaskId("e/huge")).setMethod("gin:" + "x".repeat(2 << 20))
        .setGraphFirst("C~").setGraphSecond("C~").build();
    Outcome o = p.process(record(TaskKind.PAIR, "e/huge", huge.toByteArray()), cpu);
    assertThat(o.failed()).isTrue();
    assertThat(o.result().getError().getMessage().length()).isLessThan(TaskProcessor.MESSAGE_LIMIT + 200);
    ProducerRecord<String, byte[]> dead = o.records().get(1);
    assertThat(dead.value()).hasSize(TaskProcessor.DEAD_LETTER_VALUE_LIMIT);
    assertThat(header(dead, Topics.HEADER_TRUNCATED)).isEqualTo("value: kept the first " + TaskProcessor.DEAD_LETTER_VALUE_LIMIT
        + " of " + huge.toByteArray().length + " bytes");
    int total = dead.value().length;
    for (var h : dead.headers()) {
      total += h.value().length;
    }
    assertThat(total).as("dead letter bytes, value and headers").isLessThan(100_000);
  }

  @Test
  void faultsAreRefusedUnlessTheWorkerAllowsThem() {
    EvaluatorRegistry r = EvaluatorRegistry.defaults();
    TaskProcessor p = new TaskProcessor(r, "w", TaskObserver.NONE);
    Outcome o = p.process(record(TaskKind.SYNTHETIC, "e/f", synthetic("e/f", 0, "hang").toByteArray()), cpu);
    assertThat(o.result().getError().getReason()).isEqualTo("invalid-task");
    assertThat(o.result().getError().getMessage()).contains("--allow-faults");
    r.allowFaults();
    Outcome oom = p.process(record(TaskKind.SYNTHETIC, "e/o", synthetic("e/o", 0, "oom").toByteArray()), cpu);
    assertThat(oom.result().getError().getReason()).isEqualTo("out-of-memory");
  }

  @Test
  void timeoutsParseOverTheDefaultsAndRejectNonsense() {
    TaskTimeouts t = TaskTimeouts.parse("pair=30m, synthetic=90s");
    assertThat(t.of(TaskKind.PAIR)).isEqualTo(Duration.ofMinutes(30));
    assertThat(t.of(TaskKind.SYNTHETIC)).isEqualTo(Duration.ofSeconds(90));
    assertThat(t.of(TaskKind.TRAIN)).isEqualTo(Duration.ofHours(24));
    assertThatThrownBy(() -> TaskTimeouts.parse("pear=1h")).hasMessageContaining("unknown task kind 'pear'");
    assertThatThrownBy(() -> TaskTimeouts.parse("pair=soon")).hasMessageContaining("'soon'");
    assertThatThrownBy(() -> TaskTimeouts.parse("pair=0s")).hasMessageContaining("must be positive");
    assertThat(TaskTimeouts.format(Duration.ofMinutes(90))).isEqualTo("90m");
  }
}
