package io.expresso.runtime;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.TrainTask;
import io.expresso.runtime.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The kinds of task, each with its protobuf message. Every kind travels on the one task topic
 * ({@link Topics#TASKS}), named by the record header {@link Topics#HEADER_TASK_TYPE} (the full name
 * of its protobuf message, e.g. {@code expresso.v1.PairTask}): one topic keeps the
 * share group's partitions few, so Kafka's default assignor puts every worker on every task
 * (docs/runtime.md). Every task message has a {@link TaskHeader} in its field {@code header}:
 * {@link #header} reaches it for any kind, so code that needs ids or publish times never asks
 * which kind a message is.
 */
public enum TaskKind {
  PAIR("pair", PairTask.getDescriptor()),
  TRAIN("train", TrainTask.getDescriptor()),
  ATTACK("attack", AttackTask.getDescriptor()),
  SYNTHETIC("synthetic", SyntheticTask.getDescriptor()),
  DATASET("dataset", DatasetTask.getDescriptor());

  /** The field every task message holds its header in. */
  public static final String HEADER_FIELD = "header";

  private final String label;
  private final Descriptor message;
  private final FieldDescriptor header;
  /** The message type as a task record's header carries it (UTF-8): compared as bytes, once per task. */
  private final byte[] messageTypeUtf8;

  /** Every kind, for lookups ({@code values()} copies its array at each call). */
  private static final TaskKind[] KINDS = values();
  private static final Optional<TaskKind>[] SOME = some();

  TaskKind(String label, Descriptor message) {
    this.label = label;
    this.message = message;
    this.messageTypeUtf8 = message.getFullName().getBytes(StandardCharsets.UTF_8);
    this.header = message.findFieldByName(HEADER_FIELD);
    if (header == null || header.getType() != FieldDescriptor.Type.MESSAGE
        || !header.getMessageType().equals(TaskHeader.getDescriptor())) {
      throw new IllegalStateException(message.getFullName() + " has no field '" + HEADER_FIELD + "' of type "
          + TaskHeader.getDescriptor().getFullName() + " (tasks.proto: every task message needs one)");
    }
  }

  /** The protobuf message type of this kind's tasks. */
  public Descriptor descriptor() {
    return message;
  }

  /** The header of a task of this kind (the default, empty header when the task has none). */
  public TaskHeader header(Message task) {
    if (task.getDescriptorForType() != message) {
      throw new IllegalArgumentException("a " + task.getDescriptorForType().getName() + " is not a " + label + " task");
    }
    return (TaskHeader) task.getField(header);
  }

  /** Short lower-case name, used in provenance and metric labels. */
  public String label() {
    return label;
  }

  /** The full name of this kind's protobuf message: what a task record's header {@link Topics#HEADER_TASK_TYPE} says. */
  public String messageType() {
    return message.getFullName();
  }

  /** The kind whose message type is {@code messageType}, if any. */
  public static Optional<TaskKind> ofMessageType(String messageType) {
    for (TaskKind k : values()) {
      if (k.messageType().equals(messageType)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /**
   * The kind a task record names in its header; empty when it names none or an unknown one. Asked
   * for every task (twice): the header's bytes are compared as they are, nothing is allocated.
   */
  public static Optional<TaskKind> of(Headers headers) {
    Header h = headers.lastHeader(Topics.HEADER_TASK_TYPE);
    byte[] type = h == null ? null : h.value();
    if (type != null) {
      for (TaskKind k : KINDS) {
        if (Arrays.equals(k.messageTypeUtf8, type)) {
          return SOME[k.ordinal()];
        }
      }
    }
    return Optional.empty();
  }

  @SuppressWarnings("unchecked")
  private static Optional<TaskKind>[] some() {
    Optional<TaskKind>[] some = new Optional[KINDS.length];
    for (TaskKind k : KINDS) {
      some[k.ordinal()] = Optional.of(k);
    }
    return some;
  }

  /** The kind of a task record (see {@link #of(Headers)}). */
  public static Optional<TaskKind> of(ConsumerRecord<?, ?> record) {
    return of(record.headers());
  }

  /** The message types of every kind, for messages. */
  public static String messageTypes() {
    return String.join(", ", Arrays.stream(values()).map(TaskKind::messageType).toList());
  }

  /** Decodes a record value of this kind's topic; undecodable bytes are a {@link TaskFailure}. */
  public Message parse(byte[] bytes) {
    if (bytes == null) {
      throw new TaskFailure(TaskFailure.UNDECODABLE, "record has no value");
    }
    try {
      return switch (this) {
        case PAIR -> PairTask.parseFrom(bytes);
        case TRAIN -> TrainTask.parseFrom(bytes);
        case ATTACK -> AttackTask.parseFrom(bytes);
        case SYNTHETIC -> SyntheticTask.parseFrom(bytes);
        case DATASET -> DatasetTask.parseFrom(bytes);
      };
    } catch (InvalidProtocolBufferException e) {
      throw new TaskFailure(TaskFailure.UNDECODABLE,
          "value of " + bytes.length + " bytes is not a " + label + " task (protobuf): " + e.getMessage());
    }
  }
}
