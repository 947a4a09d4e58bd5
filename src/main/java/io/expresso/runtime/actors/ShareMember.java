package io.expresso.runtime.actors;

import java.time.Duration;
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
    return consumer.poll(timeout);
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
