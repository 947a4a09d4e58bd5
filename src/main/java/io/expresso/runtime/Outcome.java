package io.expresso.runtime;

import io.expresso.proto.v1.Result;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What processing one task record produced: the records to write in the transaction that also
 * commits the task's offset (the result, plus a dead letter when the task failed).
 */
public record Outcome(Result result, List<ProducerRecord<String, byte[]>> records) {

  public Outcome {
    records = List.copyOf(records);
  }

  public boolean failed() {
    return result.hasError();
  }
}
