package io.expresso.runtime;

import io.expresso.runtime.kafka.Topics;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;

/** Task records as the worker receives them: on the task topic, the kind's message type in the header. */
public final class TaskRecords {

  private TaskRecords() {}

  public static ConsumerRecord<String, byte[]> of(TaskKind kind, int partition, long offset, String key, byte[] value) {
    ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(Topics.TASKS, partition, offset, key, value);
    r.headers().add(new RecordHeader(Topics.HEADER_TASK_TYPE, kind.messageType().getBytes(StandardCharsets.UTF_8)));
    return r;
  }
}
