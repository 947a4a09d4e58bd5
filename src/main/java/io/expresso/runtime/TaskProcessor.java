package io.expresso.runtime;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskError;
import io.expresso.proto.v1.TrainResult;
import io.expresso.proto.v1.TrainTask;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Turns one task record into its {@link Outcome}: decode, find the evaluator, evaluate, stamp
 * provenance. Never throws: every failure becomes an error result plus a dead-letter record
 * holding the original bytes and the reason in headers. Free of Kafka I/O and actors, so it is
 * tested directly.
 */
public final class TaskProcessor {

  /** One DJL training at a time in this process (PyTorch engine: one gradient collector per process). */
  private static final java.util.concurrent.locks.ReentrantLock TRAINING = new java.util.concurrent.locks.ReentrantLock();

  private final EvaluatorRegistry registry;
  private final TaskObserver observer;
  // provenance strings that are the same for many results, UTF-8 encoded once: encoding them
  // anew for every result was a measurable share of a no-op task's cost
  private final ByteString workerIdUtf8;
  private final ByteString versionsUtf8;
  private final Map<String, ByteString> utf8 = new ConcurrentHashMap<>(); // topics, kinds
  private final Map<Device, ByteString> deviceIds = new ConcurrentHashMap<>();

  public TaskProcessor(EvaluatorRegistry registry, String workerId, TaskObserver observer) {
    this.registry = registry;
    this.observer = observer;
    this.workerIdUtf8 = ByteString.copyFromUtf8(workerId);
    this.versionsUtf8 = ByteString.copyFromUtf8(Versions.line(Versions.all()));
  }

  /** Processes a record that nothing will cancel (tests, local runs). */
  public Outcome process(ConsumerRecord<String, byte[]> record, Device device) {
    return process(record, device, new Cancellation());
  }

  public Outcome process(ConsumerRecord<String, byte[]> record, Device device, Cancellation cancel) {
    long startedMs = System.currentTimeMillis();
    long start = System.nanoTime();
    TaskKind kind = TaskKind.ofTopic(record.topic());
    observer.onStarted(device, kind);
    String taskId = record.key() != null ? record.key() : record.topic() + "-" + record.partition() + "@" + record.offset();
    String experiment = "";
    long publishedMs = 0;
    Result.Builder result;
    TaskFailure failure = null;
    try {
      Message task = kind.parse(record.value());
      experiment = experimentOf(task);
      publishedMs = publishedAtOf(task);
      String id = taskIdOf(task);
      if (!id.isEmpty()) {
        taskId = id;
      }
      result = evaluate(kind, task, device, cancel);
      checkFinite(result);
    } catch (TaskFailure f) {
      failure = f;
      result = Result.newBuilder();
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      String msg = e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
      failure = new TaskFailure(TaskFailure.EXCEPTION, msg, e);
      result = Result.newBuilder();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    result.setExperimentId(experiment).setTaskId(taskId);
    if (failure != null) {
      result.setError(TaskError.newBuilder().setReason(failure.reason()).setMessage(
          failure.getMessage() + " [" + record.topic() + "/" + record.partition() + "@" + record.offset() + "]"));
    }
    result.setProvenance(Provenance.newBuilder()
        .setWorkerIdBytes(workerIdUtf8)
        .setDeviceBytes(deviceIds.computeIfAbsent(device, d -> ByteString.copyFromUtf8(d.id())))
        .setTaskKindBytes(utf8(kind.label()))
        .setTopicBytes(utf8(record.topic()))
        .setPartition(record.partition())
        .setOffset(record.offset())
        .setPublishedAtMs(publishedMs)
        .setStartedAtMs(startedMs)
        .setFinishedAtMs(System.currentTimeMillis())
        .setComputeSeconds(seconds)
        .setVersionsBytes(versionsUtf8));
    Result built = result.build();
    observer.onFinished(device, kind, built, seconds);
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>(2);
    out.add(new ProducerRecord<>(Topics.RESULTS, taskId, built.toByteArray()));
    if (failure != null) {
      ProducerRecord<String, byte[]> dead = new ProducerRecord<>(Topics.DEAD_LETTERS, record.key(), record.value());
      dead.headers().add(new RecordHeader(Topics.HEADER_REASON, failure.reason().getBytes(StandardCharsets.UTF_8)));
      dead.headers().add(new RecordHeader(Topics.HEADER_MESSAGE, built.getError().getMessage().getBytes(StandardCharsets.UTF_8)));
      dead.headers().add(new RecordHeader(Topics.HEADER_SOURCE,
          (record.topic() + "/" + record.partition() + "@" + record.offset()).getBytes(StandardCharsets.UTF_8)));
      out.add(dead);
    }
    return new Outcome(built, out);
  }

  private ByteString utf8(String s) {
    return utf8.computeIfAbsent(s, ByteString::copyFromUtf8);
  }

  @SuppressWarnings("unchecked")
  private Result.Builder evaluate(TaskKind kind, Message task, Device device, Cancellation cancel) throws Exception {
    if (taskIdOf(task).isEmpty()) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, kind.label() + " task has no task_id");
    }
    Evaluator<Message> e = registry.find(kind, task);
    Result.Builder b;
    if (kind == TaskKind.TRAIN || e.trainsWithDjl(task)) {
      TRAINING.lock();
      try {
        b = e.evaluate(task, device, cancel);
      } finally {
        TRAINING.unlock();
      }
    } else {
      b = e.evaluate(task, device, cancel);
    }
    if (b == null || b.getPayloadCase() == Result.PayloadCase.PAYLOAD_NOT_SET) {
      throw new TaskFailure(TaskFailure.EXCEPTION, "evaluator " + e + " returned no result payload");
    }
    return b;
  }

  /** A NaN anywhere in a statistic is a failed task, not a result. */
  private static void checkFinite(Result.Builder b) {
    if (b.hasPair()) {
      PairResult p = b.getPair();
      if (!Double.isFinite(p.getT2Test()) || !Double.isFinite(p.getT2Reliability())
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

  static String experimentOf(Message task) {
    if (task instanceof PairTask t) {
      return t.getExperimentId();
    } else if (task instanceof SyntheticTask t) {
      return t.getExperimentId();
    } else if (task instanceof TrainTask t) {
      return t.getExperimentId();
    } else if (task instanceof AttackTask t) {
      return t.getExperimentId();
    }
    return "";
  }

  static String taskIdOf(Message task) {
    if (task instanceof PairTask t) {
      return t.getTaskId();
    } else if (task instanceof SyntheticTask t) {
      return t.getTaskId();
    } else if (task instanceof TrainTask t) {
      return t.getTaskId();
    } else if (task instanceof AttackTask t) {
      return t.getTaskId();
    }
    return "";
  }

  static long publishedAtOf(Message task) {
    if (task instanceof PairTask t) {
      return t.getPublishedAtMs();
    } else if (task instanceof SyntheticTask t) {
      return t.getPublishedAtMs();
    } else if (task instanceof TrainTask t) {
      return t.getPublishedAtMs();
    } else if (task instanceof AttackTask t) {
      return t.getPublishedAtMs();
    }
    return 0;
  }
}
