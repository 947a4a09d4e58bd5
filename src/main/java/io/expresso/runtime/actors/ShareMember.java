package io.expresso.runtime.actors;

import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One share consumer of a device slot (one member of the fleet's share group), with the count it
 * acquires per poll and whether a fetch of it may still be under way.
 *
 * <p>Kafka 4.4's share consumer goes on fetching after a poll that found nothing, in the background,
 * until a fetch acquires tasks; those wait in its buffer, locked, for the next poll. Closing it then
 * releases them with their delivery count raised (Kafka 4.2+, KAFKA-19972): they start elsewhere as
 * a later attempt, and after {@code group.share.delivery.attempt.limit} such closes a task that never
 * ran is archived. So a consumer the slot no longer wants is closed at once only if its last poll
 * returned tasks (nothing is being fetched then); otherwise it retires: it is polled until it
 * returns what it acquired, or until it has found nothing for {@link #RETIRE_WAIT}.
 */
final class ShareMember {

  private static final Logger LOG = LoggerFactory.getLogger(ShareMember.class);

  /**
   * How long a retiring consumer's polls may find nothing before it is closed anyway. A fetch under
   * way takes any task there is within a round trip, so this long without one means the queue had
   * none for it; a task published just as it closes is the one still at risk of a second attempt.
   */
  static final Duration RETIRE_WAIT = Duration.ofSeconds(1);

  private final KafkaShareConsumer<String, byte[]> consumer;
  private final int count;
  private boolean fetching;
  private long retiredAt = -1;
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

  /** Polls, remembering whether a fetch goes on after it (it found nothing). */
  ConsumerRecords<String, byte[]> poll(Duration timeout) {
    ConsumerRecords<String, byte[]> records = consumer.poll(timeout);
    fetching = records.isEmpty();
    return records;
  }

  /** Whether a fetch of this consumer may still acquire tasks: its last poll found none. */
  boolean fetching() {
    return fetching;
  }

  /** Marks it retiring (from now, for {@link #retiredLongEnough}). */
  void retire() {
    if (retiredAt < 0) {
      retiredAt = System.nanoTime();
    }
  }

  /** Whether it has been retiring for {@link #RETIRE_WAIT}. */
  boolean retiredLongEnough() {
    return retiredAt >= 0 && System.nanoTime() - retiredAt >= RETIRE_WAIT.toNanos();
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
