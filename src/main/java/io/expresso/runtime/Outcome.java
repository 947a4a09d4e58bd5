package io.expresso.runtime;

import io.expresso.proto.v1.Result;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What processing one task record produced: the records to write in the transaction that also
 * commits the task's offset (the result, plus a dead letter when the task failed), or, for a task
 * handed back unfinished (cancelled because its partition moved or the worker stopped, or never
 * started), nothing: its offset is not committed and the partition's next owner runs it again.
 */
public record Outcome(Result result, List<ProducerRecord<String, byte[]>> records, Cancellation.Reason handedBackFor) {

  public Outcome {
    records = List.copyOf(records);
  }

  public Outcome(Result result, List<ProducerRecord<String, byte[]>> records) {
    this(result, records, null);
  }

  /** A task given up unfinished, for {@code why} (never {@link Cancellation.Reason#TIMEOUT}, which is an error result). */
  public static Outcome handedBack(ConsumerRecord<String, byte[]> record, Cancellation.Reason why) {
    return new Outcome(Result.newBuilder().setTaskId(record.key() == null ? "" : record.key()).build(), List.of(), why);
  }

  public boolean failed() {
    return result.hasError();
  }

  /** True if the task has no result here and must run again elsewhere. */
  public boolean handedBack() {
    return handedBackFor != null;
  }
}
