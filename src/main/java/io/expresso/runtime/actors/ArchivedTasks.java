package io.expresso.runtime.actors;

import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskProcessor;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the broker's dead letters into error results, so that no task vanishes. The broker
 * archives a task whose delivery count reached the group's limit when that delivery ends
 * unacknowledged (no worker saw it, or the one holding it was lost), and writes only its place
 * there ({@link Topics#BROKER_DEAD_LETTERS}, headers {@code __dlq.errors.*}). Every worker runs one
 * reader of that topic in the consumer group {@link #GROUP} (one reads at a time); it reads the
 * task at its place and produces the error result and dead letter of {@link
 * TaskProcessor#archived}, then commits. A task a worker rejected already has its error result and
 * is skipped. At least once: a crash before the commit writes an error result again, which readers
 * count once.
 */
final class ArchivedTasks {

  private static final Logger LOG = LoggerFactory.getLogger(ArchivedTasks.class);

  /** The consumer group of the workers' readers of {@link Topics#BROKER_DEAD_LETTERS}. */
  static final String GROUP = "expresso-archived-tasks";

  /** The broker's cause for a record a consumer rejected (KIP-1191): a worker's REJECT, its error result written. */
  static final String CLIENT_REJECT = "Offset rejected by client.";

  /** How long the reader waits for a task at its place before it says it cannot find it. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Where a task the broker gave up on lies, and how often it was delivered.
   *
   * @param deliveries the broker's delivery count when it gave up (0 if it did not say)
   */
  record Place(String topic, int partition, long offset, int deliveries) {

    /**
     * The place a broker dead letter names; empty for a task a worker rejected (its error result
     * exists) and for a record that names no place.
     */
    static Optional<Place> of(ConsumerRecord<?, ?> deadLetter) {
      if (CLIENT_REJECT.equals(header(deadLetter, "__dlq.errors.message"))) {
        return Optional.empty();
      }
      String topic = header(deadLetter, "__dlq.errors.topic");
      String partition = header(deadLetter, "__dlq.errors.partition");
      String offset = header(deadLetter, "__dlq.errors.offset");
      String count = header(deadLetter, "__dlq.errors.delivery.count");
      try {
        return topic == null || partition == null || offset == null ? Optional.empty()
            : Optional.of(new Place(topic, Integer.parseInt(partition), Long.parseLong(offset),
                count == null ? 0 : Integer.parseInt(count)));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }

    TopicPartition topicPartition() {
      return new TopicPartition(topic, partition);
    }

    @Override
    public String toString() {
      return topic + "/" + partition + "@" + offset;
    }
  }

  private final KafkaClients kafka;
  private final String workerId;
  private final TaskProcessor processor;
  private final DeviceSlot device;
  private final Thread thread;
  private volatile boolean closed;
  private volatile KafkaConsumer<String, byte[]> deadLetters;
  private String lastFailure;

  /** {@code device}: where this worker counts the error results it writes (nothing runs there). */
  ArchivedTasks(KafkaClients kafka, String workerId, TaskProcessor processor, DeviceSlot device) {
    this.kafka = kafka;
    this.workerId = workerId;
    this.processor = processor;
    this.device = device;
    this.thread = new Thread(this::run, "expresso-archived-tasks-" + workerId);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Stops reading (a batch under way is finished or left uncommitted, to be read again). */
  void close() {
    closed = true;
    KafkaConsumer<String, byte[]> c = deadLetters;
    if (c != null) {
      c.wakeup();
    }
    try {
      thread.join(TimeUnit.SECONDS.toMillis(15));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    while (!closed) {
      KafkaConsumer<String, byte[]> c = null;
      KafkaConsumer<String, byte[]> tasks = null;
      KafkaProducer<String, byte[]> producer = null;
      try {
        c = new KafkaConsumer<>(consumerConfig(true), new StringDeserializer(), new ByteArrayDeserializer());
        tasks = new KafkaConsumer<>(consumerConfig(false), new StringDeserializer(), new ByteArrayDeserializer());
        producer = new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer());
        deadLetters = c;
        if (closed) {
          return; // closed before the wakeup could reach this consumer
        }
        c.subscribe(List.of(Topics.BROKER_DEAD_LETTERS));
        while (!closed) {
          relay(c, tasks, producer);
        }
      } catch (WakeupException e) {
        return; // closed
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        if (closed) {
          return;
        }
        // said once while it lasts: a principal without the rights would otherwise warn every few seconds
        boolean denied = e instanceof AuthorizationException;
        (e.toString().equals(lastFailure) ? LOG.atDebug() : LOG.atWarn()).log("worker {}: reading {} failed ({}){};"
            + " again in {} s", workerId, Topics.BROKER_DEAD_LETTERS, e.toString(), denied ? " (this principal needs Read"
            + " on it and on the group " + GROUP + ")" : "", denied ? 30 : 2);
        lastFailure = e.toString();
        sleep(denied ? 30_000 : 2000);
      } finally {
        deadLetters = null;
        // bounded: a worker that stops must not wait on a cluster that stopped answering
        if (c != null) {
          c.close(Duration.ofSeconds(5));
        }
        if (tasks != null) {
          tasks.close(Duration.ofSeconds(5));
        }
        if (producer != null) {
          producer.close(Duration.ofSeconds(5));
        }
      }
    }
  }

  /** One poll's broker dead letters: each one's error result produced and acknowledged, then the poll committed. */
  private void relay(KafkaConsumer<String, byte[]> c, KafkaConsumer<String, byte[]> tasks,
      KafkaProducer<String, byte[]> producer) throws Exception {
    List<Future<RecordMetadata>> sends = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofSeconds(1))) {
      Optional<Place> place = Place.of(r);
      if (place.isEmpty()) {
        continue;
      }
      Optional<ConsumerRecord<String, byte[]>> task = read(tasks, place.get());
      if (task.isEmpty()) {
        LOG.error("worker {}: the broker gave up on the task at {} after {} deliveries, and it cannot be read there"
            + " any more (retention?): it has no result", workerId, place.get(), place.get().deliveries());
        continue;
      }
      Outcome o = processor.archived(task.get(), device, place.get().deliveries());
      LOG.warn("worker {}: the broker gave up on task {} at {} after {} deliveries with no result; wrote its error"
          + " result", workerId, o.result().getTaskId(), place.get(), place.get().deliveries());
      for (ProducerRecord<String, byte[]> out : o.records()) {
        sends.add(producer.send(out));
      }
    }
    for (Future<RecordMetadata> f : sends) {
      f.get(120, TimeUnit.SECONDS);
    }
    c.commitSync(Duration.ofSeconds(30));
  }

  /** The record at {@code place}, or empty if it is not there (any more) within {@link #READ_TIMEOUT}. */
  private static Optional<ConsumerRecord<String, byte[]>> read(KafkaConsumer<String, byte[]> tasks, Place place) {
    TopicPartition tp = place.topicPartition();
    tasks.assign(List.of(tp));
    tasks.seek(tp, place.offset());
    long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<String, byte[]> r : tasks.poll(Duration.ofMillis(500)).records(tp)) {
        return r.offset() == place.offset() ? Optional.of(r) : Optional.empty(); // past it: deleted
      }
    }
    return Optional.empty();
  }

  private static String header(ConsumerRecord<?, ?> r, String name) {
    Header h = r.headers().lastHeader(name);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private Properties consumerConfig(boolean grouped) {
    Properties p = kafka.consumer();
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, workerId + (grouped ? "-archived" : "-archived-tasks"));
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    if (grouped) {
      p.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
    }
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "100");
    return p;
  }

  private Properties producerConfig() {
    Properties p = kafka.producer();
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.CLIENT_ID_CONFIG, workerId + "-archived-results");
    return p;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
