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
import java.util.Arrays;
import java.util.List;

/**
 * The kinds of task, each with its topic and its protobuf message. Every task message has a
 * {@link TaskHeader} in its field {@code header}: {@link #header} reaches it for any kind, so code
 * that needs ids or publish times never asks which kind a message is.
 */
public enum TaskKind {
  PAIR("pair", Topics.TASKS_PAIR, PairTask.getDescriptor()),
  TRAIN("train", Topics.TASKS_TRAIN, TrainTask.getDescriptor()),
  ATTACK("attack", Topics.TASKS_ATTACK, AttackTask.getDescriptor()),
  SYNTHETIC("synthetic", Topics.TASKS_SYNTHETIC, SyntheticTask.getDescriptor()),
  DATASET("dataset", Topics.TASKS_DATASET, DatasetTask.getDescriptor());

  /** The field every task message holds its header in. */
  public static final String HEADER_FIELD = "header";

  private final String label;
  private final String topic;
  private final Descriptor message;
  private final FieldDescriptor header;

  TaskKind(String label, String topic, Descriptor message) {
    this.label = label;
    this.topic = topic;
    this.message = message;
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

  public String topic() {
    return topic;
  }

  /** The kind whose task topic is {@code topic}. */
  public static TaskKind ofTopic(String topic) {
    for (TaskKind k : values()) {
      if (k.topic.equals(topic)) {
        return k;
      }
    }
    throw new IllegalArgumentException("not a task topic: " + topic);
  }

  public static List<String> topics() {
    return Arrays.stream(values()).map(TaskKind::topic).toList();
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
