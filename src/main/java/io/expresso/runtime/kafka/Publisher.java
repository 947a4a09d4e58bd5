package io.expresso.runtime.kafka;

import com.google.protobuf.Message;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Puts tasks on the task topic (key = task id, the message type in the header {@link
 * Topics#HEADER_TASK_TYPE}) with an idempotent producer; the messages themselves
 * come from {@code runtime.TaskMessages}. Task ids are deterministic, so publishing the
 * same experiment twice yields the same ids and the aggregator counts each task once.
 *
 * <p>Tasks go to the partitions of their topic in turn (from a random one), not by a hash of the
 * key, so a topic's backlog is spread evenly over its partitions.
 */
public final class Publisher implements AutoCloseable {

  private final KafkaProducer<String, byte[]> producer;
  // the first send that failed since the last flush; a callback per send instead of a kept Future
  // per send, so publishing millions of tasks holds nothing per task
  private final AtomicReference<Exception> failed = new AtomicReference<>();
  private final Map<String, Integer> partitions = new HashMap<>();
  private int turn = java.util.concurrent.ThreadLocalRandom.current().nextInt(1 << 16);

  /** A publisher to the plaintext cluster at {@code bootstrap} (the embedded broker, tests). */
  public Publisher(String bootstrap) {
    this(KafkaClients.of(bootstrap));
  }

  public Publisher(KafkaClients clients) {
    Properties p = clients.producer();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "131072");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, String.valueOf(8 << 20));
    // big tasks (relabelings, long specs) compress well; the broker's 1 MiB limit is on the compressed batch
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  /** Sends one task (asynchronously; {@link #flush} waits for all), its message type in the header. */
  public void send(String taskId, Message task) {
    sendRaw(task.getDescriptorForType().getFullName(), taskId, task.toByteArray());
  }

  /**
   * Sends raw bytes as a task whose message type is {@code taskType} (a protobuf full name such as
   * {@code expresso.v1.PairTask}; for fault tests: garbage must end in dead letters).
   */
  public void sendRaw(String taskType, String key, byte[] value) {
    sendRaw(Topics.TASKS, key, value, List.of(new RecordHeader(Topics.HEADER_TASK_TYPE,
        taskType.getBytes(StandardCharsets.UTF_8))));
  }

  /** Sends raw bytes with the given headers to {@code topic} (for fault tests: a task without a kind). */
  public void sendRaw(String topic, String key, byte[] value, List<Header> headers) {
    int n = partitions.computeIfAbsent(topic, t -> producer.partitionsFor(t).size());
    int partition = Math.floorMod(turn++, n);
    producer.send(new ProducerRecord<>(topic, partition, key, value, headers), (metadata, e) -> {
      if (e != null) {
        failed.compareAndSet(null, e);
      }
    });
  }

  /** Waits until every task sent so far is acknowledged; throws if any failed. */
  public void flush() {
    producer.flush(); // returns once every send so far has completed, its callback included
    Exception e = failed.getAndSet(null);
    if (e != null) {
      throw new IllegalStateException("publishing failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    producer.close();
  }

}
