package io.expresso.runtime;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TrainTask;
import java.util.Arrays;
import java.util.List;

/** The kinds of task, each with its topic and its protobuf message. */
public enum TaskKind {
  PAIR("pair", Topics.TASKS_PAIR),
  TRAIN("train", Topics.TASKS_TRAIN),
  ATTACK("attack", Topics.TASKS_ATTACK),
  SYNTHETIC("synthetic", Topics.TASKS_SYNTHETIC);

  private final String label;
  private final String topic;

  TaskKind(String label, String topic) {
    this.label = label;
    this.topic = topic;
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
      };
    } catch (InvalidProtocolBufferException e) {
      throw new TaskFailure(TaskFailure.UNDECODABLE,
          "value of " + bytes.length + " bytes is not a " + label + " task (protobuf): " + e.getMessage());
    }
  }
}
