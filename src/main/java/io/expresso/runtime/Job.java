package io.expresso.runtime;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** One task record on its way to a device, and the outcome to complete when it ran. */
record Job(ConsumerRecord<String, byte[]> record, CompletableFuture<Outcome> outcome) {

  Job(ConsumerRecord<String, byte[]> record) {
    this(record, new CompletableFuture<>());
  }
}
