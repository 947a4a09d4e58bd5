package io.expresso.bench;

import io.expresso.bench.BenchPaths.Run;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.runtime.TaskMessages;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ShareGroup;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The share-group floor under the runtime path: plain share consumers, as many as the worker has
 * device slots, each acquiring {@value #ACQUIRE} records a poll as an adaptive slot does for no-op
 * tasks, acknowledging every record ACCEPT and committing asynchronously, as the task loop does,
 * with nothing run and nothing produced. What Kafka's share group itself costs per task on this
 * broker (acquisition locks, acknowledgement, the share-state writes), beside the raw consumer's one
 * hop. The consumers stay in the group for the whole bench, like the worker's, so no join is timed.
 */
final class ShareFloor implements AutoCloseable {

  static final String TOPIC = "expresso.bench.share";
  static final String GROUP = "expresso-bench-share-floor";
  /** What an adaptive slot acquires per poll for no-op tasks ({@code AcquireSize.ADAPTIVE_MAX}). */
  static final int ACQUIRE = 1024;

  private final List<Thread> threads = new ArrayList<>();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final boolean[] joined;
  private final Object lock = new Object();
  private double[] latency = new double[0];
  private int got;
  private long lastNs;

  /** Starts {@code consumers} share consumers and waits until each has fetched (it has its partitions). */
  ShareFloor(KafkaClients clients, int consumers) throws InterruptedException {
    joined = new boolean[consumers];
    for (int i = 0; i < consumers; i++) {
      int index = i;
      Thread t = new Thread(() -> consume(clients, index), "bench-share-floor-" + i);
      threads.add(t);
      t.start();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!allJoined()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the share-floor consumers did not join the group " + GROUP + " within 60 s");
      }
      Thread.sleep(20);
    }
  }

  private boolean allJoined() {
    synchronized (lock) {
      for (boolean j : joined) {
        if (!j) {
          return false;
        }
      }
      return true;
    }
  }

  private void consume(KafkaClients clients, int index) {
    try (KafkaShareConsumer<String, byte[]> c = new KafkaShareConsumer<>(
        ShareGroup.consumerConfig(clients, GROUP, GROUP + "-" + index, ACQUIRE), new StringDeserializer(),
        new ByteArrayDeserializer())) {
      c.subscribe(List.of(TOPIC));
      while (running.get()) {
        var records = c.poll(Duration.ofMillis(100));
        if (!joined[index]) {
          boolean fetched = c.metrics().entrySet().stream().anyMatch(e -> e.getKey().name().equals("fetch-total")
              && e.getKey().group().equals("consumer-share-fetch-manager-metrics")
              && e.getValue().metricValue() instanceof Double d && d >= 1);
          synchronized (lock) {
            joined[index] = fetched || !records.isEmpty();
          }
        }
        if (records.isEmpty()) {
          continue;
        }
        long now = nowNs();
        double[] ms = new double[records.count()];
        int k = 0;
        for (ConsumerRecord<String, byte[]> r : records) {
          try {
            ms[k++] = (now - SyntheticTask.parseFrom(r.value()).getPublishedAtNanos()) / 1e6;
          } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            ms[k++] = Double.NaN;
          }
          c.acknowledge(r, AcknowledgeType.ACCEPT);
        }
        c.commitAsync();
        synchronized (lock) {
          for (double m : ms) {
            if (got < latency.length) {
              latency[got] = m;
            }
            got++;
          }
          lastNs = System.nanoTime();
          lock.notifyAll();
        }
      }
    }
  }

  /** {@code n} tasks published to the floor's topic and acknowledged by its consumers. */
  Run run(KafkaClients clients, String experiment, int n, double rate) throws Exception {
    synchronized (lock) {
      latency = new double[n];
      got = 0;
    }
    try (Publisher p = new Publisher(clients)) {
      Thread publisher = new Thread(() -> {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
          BenchPaths.pace(start, i, rate);
          SyntheticTask t = TaskMessages.syntheticTask(experiment, i, 0);
          p.sendRaw(TOPIC, t.getHeader().getTaskId(), t.toByteArray(), List.of());
        }
        p.flush();
      }, "bench-publisher");
      ThreadCpu stages = new ThreadCpu();
      long cpu0 = BenchPaths.processCpuNanos();
      long start = System.nanoTime();
      publisher.start();
      long deadline = start + TimeUnit.MINUTES.toNanos(10);
      synchronized (lock) {
        while (got < n && System.nanoTime() < deadline) {
          lock.wait(100);
        }
      }
      double cpu = (BenchPaths.processCpuNanos() - cpu0) / 1e9;
      Map<String, Double> byStage = stages.secondsByStage();
      publisher.join();
      synchronized (lock) {
        if (got < n) {
          throw new IllegalStateException("share floor: only " + got + " of " + n + " records acknowledged");
        }
        return new Run("share group floor (acknowledge only)", n, (lastNs - start) / 1e9, Arrays.copyOf(latency, n), cpu,
            byStage);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(30_000);
    }
  }

  private static long nowNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
