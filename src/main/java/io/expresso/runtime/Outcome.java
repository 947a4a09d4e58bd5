package io.expresso.runtime;

import io.expresso.proto.v1.Result;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What running one delivered task produced: the records to produce before the task is
 * acknowledged (its result, plus a dead letter when it failed; the share group then ACCEPTs a
 * result and REJECTs an error result), or, for a task handed back unfinished (the worker stopped,
 * before or while it ran), nothing: the task is RELEASEd and the broker delivers it again.
 *
 * @param handedBackFor why the task was handed back; null for a task with a result
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

  /** True if the task has no result here and must run again: it is released to the share group. */
  public boolean handedBack() {
    return handedBackFor != null;
  }
}
