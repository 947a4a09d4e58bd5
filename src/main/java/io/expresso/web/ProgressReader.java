package io.expresso.web;

import com.google.protobuf.InvalidProtocolBufferException;
import io.expresso.proto.v1.TrainProgress;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows {@code expresso.progress} (the epochs workers send while they train, read from the
 * beginning of its one-day retention, outside any group) and hands each {@link TrainProgress} to
 * {@code sink}: the live page and the {@code expresso_train_*} gauges. Undecodable records are
 * skipped. Waits for the topic when it does not exist yet (a cluster created before it).
 */
final class ProgressReader implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ProgressReader.class);

  private final KafkaConsumer<String, byte[]> consumer;
  private final Consumer<TrainProgress> sink;
  private final Thread thread;
  private volatile boolean running = true;

  ProgressReader(KafkaClients clients, Consumer<TrainProgress> sink) {
    this.sink = sink;
    Properties p = clients.consumer();
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "expresso-live-progress");
    consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    thread = new Thread(this::loop, "expresso-live-progress");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    try {
      while (running && !assign()) {
        Thread.sleep(2000);
      }
      while (running) {
        try {
          for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
            try {
              sink.accept(TrainProgress.parseFrom(r.value()));
            } catch (InvalidProtocolBufferException | NullPointerException e) {
              // not a progress message: skip it, the page goes on
            }
          }
        } catch (WakeupException e) {
          throw e;
        } catch (RuntimeException e) {
          LOG.warn("progress reader: cannot read {} ({}); retrying in 2 s", Topics.PROGRESS, e.toString());
          Thread.sleep(2000);
        }
      }
    } catch (WakeupException | InterruptedException e) {
      // closing
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  /** Assigns every partition of the topic from its beginning; false while the topic is missing. */
  private boolean assign() {
    List<PartitionInfo> infos;
    try {
      infos = consumer.partitionsFor(Topics.PROGRESS, Duration.ofSeconds(5));
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      return false;
    }
    if (infos == null || infos.isEmpty()) {
      return false;
    }
    List<TopicPartition> parts = new ArrayList<>();
    for (PartitionInfo i : infos) {
      parts.add(new TopicPartition(i.topic(), i.partition()));
    }
    consumer.assign(parts);
    consumer.seekToBeginning(parts);
    return true;
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
