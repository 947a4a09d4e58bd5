package io.expresso.web;

import io.expresso.runtime.kafka.Topics;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.TaskIdWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
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
 * Counts the tasks published per experiment (unique task ids on the task topics, read from the
 * beginning outside the workers' group), so the live page can show progress as results / tasks.
 * Undecodable task records are counted under no experiment: they never carry one. Task ids are
 * remembered in a bounded {@link TaskIdWindow}, not kept: a task published again more than 1.5
 * million distinct tasks later is counted twice.
 */
final class TaskCounter implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TaskCounter.class);

  private final LiveState state;
  private final KafkaConsumer<String, byte[]> consumer;
  private final TaskIdWindow seen = new TaskIdWindow();
  private final Map<String, Long> tasks = new HashMap<>();
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final Thread thread;
  private volatile long lastHealthyMs = System.currentTimeMillis();
  private volatile boolean running = true;

  TaskCounter(KafkaClients clients, LiveState state) {
    this.state = state;
    Properties p = clients.consumer();
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, "expresso-live-task-counter");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    thread = new Thread(this::loop, "expresso-live-task-counter");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long lastRefresh = 0;
    int failures = 0;
    try {
      while (running) {
        try {
          if (System.currentTimeMillis() - lastRefresh > 2000) {
            refreshAssignment();
            lastRefresh = System.currentTimeMillis();
          }
          if (assigned.isEmpty()) {
            Thread.sleep(200);
            continue;
          }
          Map<String, Long> grown = new HashMap<>();
          for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            String experiment = experimentOf(r);
            if (experiment != null && r.key() != null && seen.put(experiment + '\u0000' + r.key(), true)) {
              grown.put(experiment, tasks.merge(experiment, 1L, Long::sum));
            }
          }
          grown.forEach(state::expect);
          if (System.currentTimeMillis() - lastHealthyMs > 5000) {
            consumer.endOffsets(assigned, Duration.ofSeconds(5)); // proves the broker answers; throws if not
            lastHealthyMs = System.currentTimeMillis();
          }
          failures = 0;
        } catch (WakeupException e) {
          throw e;
        } catch (RuntimeException e) {
          // a broker outage: positions are kept, so wait and read on rather than freeze the page
          failures++;
          long backoff = Math.min(30_000, 500L << Math.min(6, failures - 1));
          LOG.warn("task counter: cannot read the task topics ({}); retrying in {} ms", e.toString(), backoff);
          Thread.sleep(backoff);
        }
      }
    } catch (WakeupException | InterruptedException e) {
      // closing
    } finally {
      consumer.close(Duration.ofSeconds(2));
    }
  }

  /** Whether the counter read from the broker within {@code staleAfter}. */
  public boolean healthy(Duration staleAfter) {
    return System.currentTimeMillis() - lastHealthyMs <= staleAfter.toMillis();
  }

  private static String experimentOf(ConsumerRecord<String, byte[]> r) {
    try {
      TaskKind kind = TaskKind.of(r).orElse(null);
      String e = kind.header(kind.parse(r.value())).getExperimentId();
      return e.isEmpty() ? null : e;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private void refreshAssignment() {
    List<TopicPartition> fresh = new ArrayList<>();
    for (String topic : List.of(Topics.TASKS)) {
      List<PartitionInfo> infos;
      try {
        infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        continue;
      }
      if (infos == null) {
        continue;
      }
      for (PartitionInfo i : infos) {
        TopicPartition tp = new TopicPartition(i.topic(), i.partition());
        if (assigned.add(tp)) {
          fresh.add(tp);
        }
      }
    }
    if (!fresh.isEmpty()) {
      consumer.assign(new ArrayList<>(assigned));
      consumer.seekToBeginning(fresh);
    }
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
