package io.expresso.runtime.actors;

import io.expresso.runtime.Cancellation;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskKind;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One delivered task on its way to a device: its record, how often the broker delivered it before
 * without a result (its delivery count less one), its cancellation, and the outcome to complete. A job is queued, then either dropped (the worker stops before it started) or run; the
 * loop and the devices race only through {@link #start} and {@link #drop}.
 */
final class Job {

  private enum State { QUEUED, RUNNING, FINISHED, DROPPED }

  private final ConsumerRecord<String, byte[]> record;
  private final TopicPartition partition;
  private final TaskKind kind;
  private final int priorAttempts;
  private final Cancellation cancellation = new Cancellation();
  private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
  private final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);

  /** A job for a record of a share group: the broker's delivery count says how often it was delivered before. */
  Job(ConsumerRecord<String, byte[]> record) {
    this(record, record.deliveryCount().map(c -> Math.max(0, c - 1)).orElse(0));
  }

  Job(ConsumerRecord<String, byte[]> record, int priorAttempts) {
    this.record = record;
    this.partition = new TopicPartition(record.topic(), record.partition());
    this.kind = TaskKind.of(record).orElse(null);
    this.priorAttempts = priorAttempts;
  }

  ConsumerRecord<String, byte[]> record() {
    return record;
  }

  TopicPartition partition() {
    return partition;
  }

  /** The task's kind, or null for a record that names none (it ends as an error result, nothing run). */
  TaskKind kind() {
    return kind;
  }

  /** Earlier deliveries of this task that left no result (a crash, a lost lease, a release). */
  int priorAttempts() {
    return priorAttempts;
  }

  Cancellation cancellation() {
    return cancellation;
  }

  CompletableFuture<Outcome> outcome() {
    return outcome;
  }

  /** Claims the job for a device; false if it was dropped first. */
  boolean start() {
    return state.compareAndSet(State.QUEUED, State.RUNNING);
  }

  /** Drops a job that has not started (the worker stops); false if it already runs. */
  boolean drop() {
    if (state.compareAndSet(State.QUEUED, State.DROPPED)) {
      outcome.complete(Outcome.handedBack(record, Cancellation.Reason.STOPPING));
      return true;
    }
    return false;
  }

  void finish(Outcome o) {
    state.set(State.FINISHED);
    outcome.complete(o);
  }

  boolean queued() {
    return state.get() == State.QUEUED;
  }

  /** Started on a device and not finished yet. */
  boolean running() {
    return state.get() == State.RUNNING;
  }
}
