package io.expresso.runtime.actors;

import java.time.Duration;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One share consumer of a device slot (one member of the fleet's share group) and the count it
 * acquires per poll. A task is acknowledged on the consumer whose poll returned it, so a slot that
 * changes consumers keeps the old one until what it returned has been acknowledged.
 *
 * <p>Why the old one is polled once more before it goes: Kafka 4.4's share consumer goes on
 * fetching after a poll that found nothing, in the background, until a fetch acquires tasks; those
 * wait in its buffer, locked, for the next poll. Closing it then releases them with their delivery
 * count raised (Kafka 4.2+, KAFKA-19972): they start elsewhere as a second attempt, and after the
 * group's delivery limit a task that never ran would be archived.
 */
final class ShareMember {

  private static final Logger LOG = LoggerFactory.getLogger(ShareMember.class);

  private final KafkaShareConsumer<String, byte[]> consumer;
  private final int count;
  private boolean closed;
  /** Acknowledgements given since they were last sent (by a commit, a poll or the close). */
  private int unsent;
  private long sentAt = System.nanoTime();

  ShareMember(KafkaShareConsumer<String, byte[]> consumer, int count) {
    this.consumer = consumer;
    this.count = count;
  }

  KafkaShareConsumer<String, byte[]> consumer() {
    return consumer;
  }

  /** Tasks acquired per poll ({@code max.poll.records}, fixed when the consumer was created). */
  int count() {
    return count;
  }

  ConsumerRecords<String, byte[]> poll(Duration timeout) {
    if (unsent > 0) {
      // committed on their own before the fetch, as each task's were before batching (a poll
      // carrying them in its fetch let FleetIntegrationTest's join-and-leave run a task twice once)
      consumer.commitAsync();
      sent();
    }
    return consumer.poll(timeout);
  }

  /** Gives an acknowledgement; it is committed by {@link #commitIfDue}, before the next poll, or by the close. */
  void acknowledge(ConsumerRecord<String, byte[]> record, AcknowledgeType type) {
    consumer.acknowledge(record, type);
    unsent++;
  }

  /**
   * Commits the acknowledgements given since the last were sent, in the background, once {@code
   * every} has passed since then: one request carries many tasks' acknowledgements, and the broker
   * writes the share state once for them all, not once for each device's chunk.
   */
  void commitIfDue(Duration every) {
    if (unsent > 0 && System.nanoTime() - sentAt >= every.toNanos()) {
      consumer.commitAsync();
      sent();
    }
  }

  /** The acknowledgements given so far were sent (a synchronous commit sends them too). */
  void sent() {
    unsent = 0;
    sentAt = System.nanoTime();
  }

  /** Closes the consumer: it leaves the group, releasing whatever it still holds. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      consumer.close(Duration.ofSeconds(10));
    } catch (Exception e) {
      LOG.debug("closing the share consumer: {}", e.toString());
    }
  }
}
