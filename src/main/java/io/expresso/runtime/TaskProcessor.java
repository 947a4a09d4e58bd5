package io.expresso.runtime;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import io.expresso.engine.EngineState;
import io.expresso.engine.GpuPrecision;
import io.expresso.engine.LoadedTorch;
import io.expresso.engine.NativeEngine;
import io.expresso.engine.Precision;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainResult;
import io.expresso.runtime.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Turns one task record into its {@link Outcome}: decode, find the evaluator, evaluate, stamp
 * provenance. Never throws: every failure becomes an error result (keeping what names the task,
 * {@link Evaluator#identity}) plus a dead-letter record holding the original bytes and the reason
 * in headers. Free of Kafka I/O and actors, so it is
 * tested directly.
 */
public final class TaskProcessor {

  private final EvaluatorRegistry registry;
  private final TaskObserver observer;
  // provenance strings that are the same for many results, UTF-8 encoded once: encoding them
  // anew for every result was a measurable share of a no-op task's cost
  private final ByteString workerIdUtf8;
  private volatile ByteString versionsUtf8; // rewritten once, when PyTorch is first seen loaded
  private volatile boolean torchSeen;
  private final ByteString revisionUtf8;
  private final Map<String, ByteString> utf8 = new ConcurrentHashMap<>(); // topics, kinds
  private final Map<DeviceSlot, ByteString> deviceIds = new ConcurrentHashMap<>();

  /** The most of a dead letter's original value kept (the rest is cut, and a header says so). */
  static final int DEAD_LETTER_VALUE_LIMIT = 64 * 1024;
  /** The most characters of an error message kept in a result and a dead letter's header. */
  static final int MESSAGE_LIMIT = 4096;
  /** The largest result record produced; a bigger one becomes an error result (the broker takes 1 MiB by default). */
  static final int RESULT_LIMIT = 900 * 1024;

  /** The most bytes of what names a task ({@link Evaluator#identity}) an error result keeps. */
  static final int IDENTITY_LIMIT = 16 * 1024;
  private static final OneofDescriptor PAYLOAD =
      Result.getDescriptor().findFieldByNumber(Result.PAIR_FIELD_NUMBER).getContainingOneof();

  private final TaskTimeouts timeouts;
  private final TaskLimits limits;

  public TaskProcessor(EvaluatorRegistry registry, String workerId, TaskObserver observer) {
    this(registry, workerId, observer, TaskTimeouts.DEFAULTS, TaskLimits.DEFAULTS);
  }

  public TaskProcessor(EvaluatorRegistry registry, String workerId, TaskObserver observer, TaskTimeouts timeouts) {
    this(registry, workerId, observer, timeouts, TaskLimits.DEFAULTS);
  }

  public TaskProcessor(EvaluatorRegistry registry, String workerId, TaskObserver observer, TaskTimeouts timeouts,
      TaskLimits limits) {
    this.registry = registry;
    this.observer = observer;
    this.timeouts = timeouts;
    this.limits = limits;
    this.workerIdUtf8 = ByteString.copyFromUtf8(workerId);
    this.torchSeen = LoadedTorch.known().isPresent();
    this.versionsUtf8 = ByteString.copyFromUtf8(Versions.line(Versions.all(LoadedTorch.known())));
    this.revisionUtf8 = ByteString.copyFromUtf8(Versions.revision());
  }

  /** Processes a record that nothing will cancel (tests, local runs). */
  public Outcome process(ConsumerRecord<String, byte[]> record, DeviceSlot device) {
    return process(record, device, new Cancellation());
  }

  /**
   * Runs one task. If {@code cancel} fires while it runs: for a timeout, an error result naming the
   * limit; for a stop, a {@linkplain Outcome#handedBack handed-back} outcome with nothing to produce
   * (the task is released and delivered again).
   */
  public Outcome process(ConsumerRecord<String, byte[]> record, DeviceSlot device, Cancellation cancel) {
    return process(record, device, cancel, 1);
  }

  /**
   * As {@link #process(ConsumerRecord, DeviceSlot, Cancellation)} for the {@code attempt}-th start of
   * the task (1 + earlier starts that left no result), recorded in the result's provenance.
   */
  public Outcome process(ConsumerRecord<String, byte[]> record, DeviceSlot device, Cancellation cancel, int attempt) {
    long startedMs = System.currentTimeMillis();
    long start = System.nanoTime();
    java.util.Optional<TaskKind> typed = TaskKind.of(record);
    if (typed.isEmpty()) {
      return untyped(record, device, attempt);
    }
    TaskKind kind = typed.get();
    observer.onStarted(device, kind);
    String taskId = record.key() != null ? record.key() : record.topic() + "-" + record.partition() + "@" + record.offset();
    String experiment = "";
    TaskHeader header = TaskHeader.getDefaultInstance();
    Message task = null;
    Result.Builder result;
    TaskFailure failure = null;
    try {
      task = kind.parse(record.value());
      header = kind.header(task);
      experiment = header.getExperimentId();
      if (!header.getTaskId().isEmpty()) {
        taskId = header.getTaskId();
      }
      result = evaluate(kind, task, header, device, cancel);
      noteTorch(kind, result);
      checkFinite(result);
    } catch (TaskFailure f) {
      failure = f;
      result = Result.newBuilder();
    } catch (CancellationException e) {
      if (cancel.reason() != Cancellation.Reason.TIMEOUT) {
        double seconds = (System.nanoTime() - start) / 1e9;
        Cancellation.Reason why = cancel.reason() == null ? Cancellation.Reason.INTERRUPTED : cancel.reason();
        observer.onCancelled(device, kind, why, seconds);
        return Outcome.handedBack(record, why);
      }
      failure = new TaskFailure(TaskFailure.TIMEOUT, kind.label() + " task ran past its limit of "
          + TaskTimeouts.format(timeouts.of(kind)) + " on " + device.id() + " and was cancelled (worker --task-timeout "
          + kind.label() + "=...)");
      result = Result.newBuilder();
    } catch (OutOfMemoryError e) {
      failure = new TaskFailure(TaskFailure.OUT_OF_MEMORY, "OutOfMemoryError: " + e.getMessage(), e);
      result = Result.newBuilder();
    } catch (Exception | Error e) {
      // an Error that is not the JVM's own death (an assertion, a linkage error, a stack overflow)
      // ends this task, not the worker
      String msg = e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
      failure = new TaskFailure(TaskFailure.EXCEPTION, msg, e);
      result = Result.newBuilder();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    result.setExperimentId(experiment).setTaskId(taskId);
    if (failure != null) {
      identity(result, kind, task).setError(error(failure.reason(), failure.getMessage(), record));
    }
    stamp(result, record, device, kind, header, attempt, startedMs, seconds);
    Result built = result.build();
    if (failure == null && built.getSerializedSize() > RESULT_LIMIT) {
      failure = new TaskFailure(TaskFailure.RESULT_TOO_LARGE, "the result is " + built.getSerializedSize()
          + " bytes, over the " + RESULT_LIMIT + "-byte limit of a result record");
      built = identity(result, kind, task).setError(error(failure.reason(), failure.getMessage(), record)).build();
    }
    observer.onFinished(device, kind, built, seconds);
    return outcome(record, built, failure == null ? null : failure.reason());
  }

  /**
   * The outcome of a task the broker delivered {@code deliveries} times without a result (it took
   * down or was lost with a worker each time): it is not run again, but ends as an error result and
   * a dead letter with reason {@code poison: N deliveries}.
   */
  public Outcome poison(ConsumerRecord<String, byte[]> record, DeviceSlot device, int deliveries) {
    return givenUp(record, device, deliveries, "the broker delivered the task " + deliveries
        + " times and no worker produced a result (each took it down or was lost with it), so it is not run again");
  }

  /**
   * The outcome of a task the broker gave up on by itself: it reached its delivery limit at a
   * delivery that ended unacknowledged (no worker saw it, or the worker holding it was lost) and
   * the broker wrote its place to {@link Topics#BROKER_DEAD_LETTERS}. An error result and a dead
   * letter with reason {@code poison: N deliveries}, as for {@link #poison}; {@code device} is where
   * this worker noticed it, nothing ran there.
   */
  public Outcome archived(ConsumerRecord<String, byte[]> record, DeviceSlot device, int deliveries) {
    return givenUp(record, device, deliveries, "the broker gave up on the task after " + deliveries
        + " deliveries (the group's share.delivery.count.limit) with no worker's result: its last delivery reached no"
        + " worker or ended unacknowledged (a worker lost, a lock run out, a broker failover), so it is not run again");
  }

  private Outcome givenUp(ConsumerRecord<String, byte[]> record, DeviceSlot device, int deliveries, String why) {
    java.util.Optional<TaskKind> typed = TaskKind.of(record);
    if (typed.isEmpty()) {
      return untyped(record, device, deliveries + 1);
    }
    TaskKind kind = typed.get();
    observer.onStarted(device, kind);
    String taskId = record.key() != null ? record.key() : record.topic() + "-" + record.partition() + "@" + record.offset();
    TaskHeader header = TaskHeader.getDefaultInstance();
    Message task = null;
    try {
      task = kind.parse(record.value());
      header = kind.header(task);
      taskId = header.getTaskId().isEmpty() ? taskId : header.getTaskId();
    } catch (TaskFailure undecodable) {
      // the reason below says enough; the dead letter keeps the bytes
    }
    String reason = TaskFailure.POISON + ": " + deliveries + " deliveries";
    Result.Builder b = identity(Result.newBuilder(), kind, task).setExperimentId(header.getExperimentId())
        .setTaskId(taskId)
        .setError(error(TaskFailure.POISON, reason + ": " + why, record));
    long now = System.currentTimeMillis();
    stamp(b, record, device, kind, header, deliveries + 1, now, 0);
    Result built = b.build();
    observer.onPoison(device, kind);
    observer.onFinished(device, kind, built, 0);
    return outcome(record, built, reason);
  }

  /**
   * The outcome of a record that names no task kind (no header {@link Topics#HEADER_TASK_TYPE}, or
   * an unknown type): an error result {@code undecodable} and a dead letter, nothing run. It counts
   * in no kind's meters (it has none).
   */
  private Outcome untyped(ConsumerRecord<String, byte[]> record, DeviceSlot device, int attempt) {
    org.apache.kafka.common.header.Header h = record.headers().lastHeader(Topics.HEADER_TASK_TYPE);
    String named = h == null || h.value() == null ? "no header " + Topics.HEADER_TASK_TYPE
        : "header " + Topics.HEADER_TASK_TYPE + "='" + bounded(new String(h.value(), StandardCharsets.UTF_8), 200) + "'";
    String taskId = record.key() != null ? record.key() : record.topic() + "-" + record.partition() + "@" + record.offset();
    long now = System.currentTimeMillis();
    Result.Builder b = Result.newBuilder().setTaskId(taskId).setError(error(TaskFailure.UNDECODABLE,
        "the record has " + named + ": a task names its message type there, one of " + TaskKind.messageTypes(), record));
    b.setProvenance(provenance(record, device, "", TaskHeader.getDefaultInstance(), attempt, now, 0, 0));
    return outcome(record, b.build(), TaskFailure.UNDECODABLE);
  }

  /**
   * {@code result} with its payload replaced by what names {@code task} ({@link
   * Evaluator#identity}; a pair task that no evaluator takes keeps its pair under the method as
   * the task wrote it): an error result counts where the task's success would have, a failed pair
   * in its category's errors and against its seed. No payload for a task that did not decode, nor
   * for one whose names are over {@link #IDENTITY_LIMIT} (a hostile task: its error result stays small).
   */
  @SuppressWarnings("unchecked")
  private Result.Builder identity(Result.Builder result, TaskKind kind, Message task) {
    result.clearPayload();
    if (task == null) {
      return result;
    }
    Result.Builder id = null;
    try {
      id = ((Evaluator<Message>) registry.find(kind, task)).identity(task);
    } catch (RuntimeException e) {
      // no evaluator takes the task (unknown-model), or it cannot name it: the fallback below
    }
    if (id == null && task instanceof PairTask p) {
      id = Result.newBuilder().setPair(PairIdentity.of(p, p.getMethod()));
    }
    Result named = id == null ? null : id.build();
    if (named != null && named.getSerializedSize() <= IDENTITY_LIMIT) {
      FieldDescriptor payload = named.getOneofFieldDescriptor(PAYLOAD);
      if (payload != null) {
        result.setField(payload, named.getField(payload)); // the payload alone: ids and provenance are the worker's
      }
    }
    return result;
  }

  private TaskError.Builder error(String reason, String message, ConsumerRecord<String, byte[]> record) {
    return TaskError.newBuilder().setReason(reason).setMessage(bounded(message, MESSAGE_LIMIT)
        + " [" + record.topic() + "/" + record.partition() + "@" + record.offset() + "]");
  }

  private void stamp(Result.Builder result, ConsumerRecord<String, byte[]> record, DeviceSlot device, TaskKind kind,
      TaskHeader header, int attempt, long startedMs, double seconds) {
    result.setProvenance(provenance(record, device, kind.label(), header, attempt, startedMs, seconds,
        device.isGpu() || !ranModel(kind, result) ? 0 : engineThreads()));
  }

  private Provenance.Builder provenance(ConsumerRecord<String, byte[]> record, DeviceSlot device, String kind,
      TaskHeader header, int attempt, long startedMs, double seconds, int intraOpThreads) {
    return Provenance.newBuilder()
        .setWorkerIdBytes(workerIdUtf8)
        .setDeviceBytes(deviceIds.computeIfAbsent(device, d -> ByteString.copyFromUtf8(d.id())))
        .setTaskKindBytes(utf8(kind))
        .setTopicBytes(utf8(record.topic()))
        .setPartition(record.partition())
        .setOffset(record.offset())
        .setPublishedAtMs(header.getPublishedAtMs())
        .setPublisher(header.getPublisher())
        .setAttempt(attempt)
        .setStartedAtMs(startedMs)
        .setFinishedAtMs(System.currentTimeMillis())
        .setComputeSeconds(seconds)
        .setVersionsBytes(versionsUtf8)
        .setPrecisionBytes(utf8(device.isGpu() ? GpuPrecision.current().label() : Precision.FP32.label()))
        .setIntraOpThreads(intraOpThreads)
        .setRevisionBytes(revisionUtf8);
  }

  /**
   * The result record, plus for a failure a dead letter: the original bytes (cut to {@link
   * #DEAD_LETTER_VALUE_LIMIT}) with reason, message and source in headers, so that no dead letter
   * can exceed the broker's record limit (a failed send releases the task to run again).
   */
  private static Outcome outcome(ConsumerRecord<String, byte[]> record, Result built, String deadLetterReason) {
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>(2);
    out.add(new ProducerRecord<>(Topics.RESULTS, built.getTaskId(), built.toByteArray()));
    if (deadLetterReason != null) {
      byte[] value = record.value();
      String truncated = "";
      if (value != null && value.length > DEAD_LETTER_VALUE_LIMIT) {
        truncated = "value: kept the first " + DEAD_LETTER_VALUE_LIMIT + " of " + value.length + " bytes";
        value = java.util.Arrays.copyOf(value, DEAD_LETTER_VALUE_LIMIT);
      }
      ProducerRecord<String, byte[]> dead = new ProducerRecord<>(Topics.DEAD_LETTERS, bounded(record.key(), 1024), value);
      dead.headers().add(new RecordHeader(Topics.HEADER_REASON, deadLetterReason.getBytes(StandardCharsets.UTF_8)));
      dead.headers().add(new RecordHeader(Topics.HEADER_MESSAGE, built.getError().getMessage().getBytes(StandardCharsets.UTF_8)));
      dead.headers().add(new RecordHeader(Topics.HEADER_SOURCE,
          (record.topic() + "/" + record.partition() + "@" + record.offset()).getBytes(StandardCharsets.UTF_8)));
      if (!truncated.isEmpty()) {
        dead.headers().add(new RecordHeader(Topics.HEADER_TRUNCATED, truncated.getBytes(StandardCharsets.UTF_8)));
      }
      out.add(dead);
    }
    return new Outcome(built, out);
  }

  /** {@code s} cut to {@code limit} characters, saying how long it was. */
  static String bounded(String s, int limit) {
    if (s == null || s.length() <= limit) {
      return s;
    }
    return s.substring(0, limit) + "… (cut: " + s.length() + " characters in all)";
  }

  private ByteString utf8(String s) {
    return utf8.computeIfAbsent(s, ByteString::copyFromUtf8);
  }

  @SuppressWarnings("unchecked")
  private Result.Builder evaluate(TaskKind kind, Message task, TaskHeader header, DeviceSlot device, Cancellation cancel)
      throws Exception {
    if (header.getTaskId().isEmpty()) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, kind.label() + " task has no header.task_id");
    }
    limits.check(kind, task);
    Evaluator<Message> e = registry.find(kind, task);
    // trainings run side by side on a worker's devices: each records its own gradients (ThreadGradients)
    Result.Builder b = e.evaluate(task, device, cancel);
    if (b == null || b.getPayloadCase() == Result.PayloadCase.PAYLOAD_NOT_SET) {
      throw new TaskFailure(TaskFailure.EXCEPTION, "evaluator " + e + " returned no result payload");
    }
    return b;
  }

  /**
   * Once a task has run a model, records the PyTorch this process loaded in the versions line
   * (looked up in the mapped libraries once; exact methods and load tasks never look).
   */
  private void noteTorch(TaskKind kind, Result.Builder result) {
    if (torchSeen || kind == TaskKind.SYNTHETIC || (result.hasPair() && result.getPair().getExact())) {
      return;
    }
    java.util.Optional<LoadedTorch> torch = LoadedTorch.find();
    if (torch.isPresent()) {
      versionsUtf8 = ByteString.copyFromUtf8(Versions.line(Versions.all(torch)));
      torchSeen = true;
    }
  }

  /** Whether the task may have run a model: not a synthetic task, nor a pair judged by an exact method. */
  private static boolean ranModel(TaskKind kind, Result.Builder result) {
    return kind != TaskKind.SYNTHETIC && !(result.hasPair() && result.getPair().getExact());
  }

  private static boolean validT2(double t2) {
    return t2 >= 0; // false for NaN and negative values; +∞ allowed
  }

  /** The intra-op threads the started engine runs, read back from it; 0 if no engine started here. */
  private static int engineThreads() {
    return NativeEngine.started().map(EngineState::intraOpThreads).orElse(0);
  }

  /**
   * A NaN anywhere in a statistic is a failed task, not a result. T² may be +∞: the same non-zero
   * difference in every relabeling, no spread (stats.HotellingT2).
   */
  private static void checkFinite(Result.Builder b) {
    if (b.hasPair()) {
      PairResult p = b.getPair();
      if (!validT2(p.getT2Test()) || !validT2(p.getT2Reliability())
          || !Double.isFinite(p.getThreshold()) || Double.isNaN(p.getFinalLoss())) {
        throw new TaskFailure(TaskFailure.NAN, "pair " + p.getPairIndex() + " under " + p.getMethod()
            + ": non-finite statistic (T2 " + p.getT2Test() + ", reliability " + p.getT2Reliability()
            + ", threshold " + p.getThreshold() + ", loss " + p.getFinalLoss() + ")");
      }
    }
    if (b.hasTrain()) {
      TrainResult t = b.getTrain();
      if (Double.isNaN(t.getFinalLoss()) || Double.isNaN(t.getValidationMae()) || Double.isNaN(t.getTestMae())) {
        throw new TaskFailure(TaskFailure.NAN, "training " + t.getModel() + " on " + t.getPattern() + " diverged (NaN)");
      }
    }
  }
}
