package io.expresso.bench;

import io.expresso.runtime.TaskMessages;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The three paths {@code expresso bench} measures on one broker, each the same no-op synthetic
 * tasks from a producer until the last one is read back:
 * <ul>
 *   <li>raw: producer → consumer, one hop (the reference rate);
 *   <li>relay: producer → consumer → transactional producer → read_committed consumer, with plain
 *       Kafka clients and no processing: the least any exactly-once consume-process-produce
 *       design pays (the runtime was one such design until the share group made it at-least-once);
 *   <li>runtime: publisher → worker (share consumers, devices, idempotent producer) → aggregator.
 * </ul>
 * Threads get names that {@link ThreadCpu} maps to pipeline stages.
 */
final class BenchPaths {

  static final String RAW_TOPIC = "expresso.bench.raw";
  static final String RELAY_IN = "expresso.bench.relay.in";
  static final String RELAY_OUT = "expresso.bench.relay.out";

  private BenchPaths() {}

  /** One measured run of one path. */
  record Run(String path, int tasks, double seconds, double[] latencyMs, double cpuSeconds,
      Map<String, Double> cpuByStage) {
    double rate() {
      return tasks / seconds;
    }

    /** Process CPU time (all threads: broker, clients, worker, aggregator, GC) per task, in µs. */
    double cpuMicrosPerTask() {
      return 1e6 * cpuSeconds / tasks;
    }

    double quantile(double q) {
      double[] s = latencyMs.clone();
      Arrays.sort(s);
      return s[(int) Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
    }
  }

  static void createTopics(KafkaClients clients, int partitions) throws Exception {
    try (Admin admin = Admin.create(clients.admin())) {
      admin.createTopics(List.of(new NewTopic(RAW_TOPIC, partitions, (short) 1),
          new NewTopic(RELAY_IN, partitions, (short) 1), new NewTopic(RELAY_OUT, partitions, (short) 1),
          new NewTopic(ShareFloor.TOPIC, partitions, (short) 1)))
          .all().get(60, TimeUnit.SECONDS);
    }
  }

  /** Synthetic no-op tasks through worker and aggregator; latency = publish to aggregator receipt. */
  static Run runtime(KafkaClients clients, String experiment, int n, double rate) throws Exception {
    double[] latency = new double[n];
    int[] k = {0};
    long[] lastNs = {0};
    try (Aggregator a = new Aggregator(clients, experiment).fromNow();
         Publisher p = new Publisher(clients)) {
      a.addListener(r -> {
        long now = nowNs();
        Result res = r;
        synchronized (k) {
          if (k[0] < n && res.hasSynthetic()) {
            latency[k[0]++] = (now - res.getSynthetic().getPublishedAtNanos()) / 1e6;
          }
          lastNs[0] = System.nanoTime();
        }
      }).start();
      Thread publisher = new Thread(() -> {
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
          pace(start, i, rate);
          p.send(experiment + "/synthetic/" + i, TaskMessages.syntheticTask(experiment, i, 0));
        }
        p.flush();
      }, "bench-publisher");
      ThreadCpu stages = new ThreadCpu();
      long cpu0 = processCpuNanos();
      long start = System.nanoTime();
      publisher.start();
      boolean all = a.awaitUnique(n, Duration.ofMinutes(10));
      double cpu = (processCpuNanos() - cpu0) / 1e9;
      Map<String, Double> byStage = stages.secondsByStage();
      publisher.join();
      if (!all) {
        throw new IllegalStateException("only " + a.uniqueCount() + " of " + n + " results arrived");
      }
      synchronized (k) {
        return new Run("runtime (share group)", n, (lastNs[0] - start) / 1e9, Arrays.copyOf(latency, k[0]), cpu,
            byStage);
      }
    }
  }

  /** The same records straight from a producer to a plain consumer. */
  static Run raw(KafkaClients clients, String experiment, int n, double rate) throws Exception {
    try (KafkaConsumer<String, byte[]> c = endConsumer(clients, RAW_TOPIC, false);
         Publisher p = new Publisher(clients)) {
      return measure("raw producer->consumer", n, rate, c, p, RAW_TOPIC, experiment, () -> { });
    }
  }

  /**
   * The same records relayed exactly-once by plain clients: a consumer in its own group reads
   * them, a transactional producer writes each value unchanged, and the consumer's offsets go
   * into the same transaction, committed every {@code commitInterval} (the worker's scheme without
   * actors, batching or processing). Read back with read_committed.
   */
  static Run relay(KafkaClients clients, String experiment, int n, double rate, Duration commitInterval) throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    CountDownLatch ready = new CountDownLatch(1);
    try (KafkaConsumer<String, byte[]> c = endConsumer(clients, RELAY_OUT, true);
         Publisher p = new Publisher(clients)) {
      FutureTask<Void> relay = new FutureTask<>(() -> {
        relayLoop(clients, experiment, commitInterval, running, ready);
        return null;
      });
      Thread relaying = new Thread(relay, "bench-relay");
      relaying.start();
      while (!ready.await(100, TimeUnit.MILLISECONDS)) {
        if (relay.isDone()) {
          relay.get(); // it failed before it was ready
        }
      }
      try {
        return measure("relay (plain clients, exactly-once)", n, rate, c, p, RELAY_IN, experiment, () -> {
          if (relay.isDone()) {
            relay.get(); // surfaces the relay's failure instead of waiting out the deadline
          }
        });
      } finally {
        running.set(false);
        relay.get(60, TimeUnit.SECONDS);
      }
    }
  }

  private static void relayLoop(KafkaClients clients, String experiment, Duration commitInterval, AtomicBoolean running,
      CountDownLatch ready) throws InterruptedException {
    Properties cp = clients.consumer();
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, "expresso-bench-relay-" + experiment);
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    cp.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    Properties pp = clients.producer();
    pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "expresso-bench-relay-" + experiment);
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "2");
    pp.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(256 * 1024));
    try (KafkaConsumer<String, byte[]> in = new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer());
         KafkaProducer<String, byte[]> out = new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer())) {
      List<TopicPartition> tps = partitions(in, RELAY_IN);
      in.assign(tps);
      in.seekToEnd(tps);
      tps.forEach(in::position);
      out.initTransactions();
      out.beginTransaction();
      ready.countDown(); // positioned at the end: tasks published from now on are all relayed
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      long lastCommit = System.nanoTime();
      while (running.get()) {
        ConsumerRecords<String, byte[]> polled = in.poll(Duration.ofMillis(10));
        for (ConsumerRecord<String, byte[]> r : polled) {
          out.send(new ProducerRecord<>(RELAY_OUT, r.key(), r.value()));
          offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
        }
        if (System.nanoTime() - lastCommit >= commitInterval.toNanos() && !offsets.isEmpty()) {
          out.sendOffsetsToTransaction(offsets, in.groupMetadata());
          out.commitTransaction();
          out.beginTransaction();
          offsets.clear();
          lastCommit = System.nanoTime();
        }
      }
      if (!offsets.isEmpty()) {
        out.sendOffsetsToTransaction(offsets, in.groupMetadata());
      }
      out.commitTransaction();
    }
  }

  /**
   * Publishes {@code n} tasks to {@code topic} on a producer thread and reads them back with
   * {@code c} on a consumer thread ({@code rate} tasks/s, 0 for as fast as it goes); {@code check}
   * runs between polls.
   */
  private static Run measure(String path, int n, double rate, KafkaConsumer<String, byte[]> c, Publisher p, String topic,
      String experiment, ThrowingRunnable check) throws Exception {
    double[] latency = new double[n];
    Thread producer = new Thread(() -> {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        pace(start, i, rate);
        SyntheticTask t = TaskMessages.syntheticTask(experiment, i, 0);
        p.sendRaw(topic, t.getHeader().getTaskId(), t.toByteArray(), List.of());
      }
      p.flush();
    }, "bench-publisher");
    FutureTask<Integer> consumer = new FutureTask<>(() -> {
      int got = 0;
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
      while (got < n && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(100))) {
          long now = nowNs();
          SyntheticTask t = SyntheticTask.parseFrom(r.value());
          if (got < n) {
            latency[got++] = (now - t.getPublishedAtNanos()) / 1e6;
          }
        }
        check.run();
      }
      return got;
    });
    ThreadCpu stages = new ThreadCpu();
    long cpu0 = processCpuNanos();
    long start = System.nanoTime();
    new Thread(consumer, "bench-end-consumer").start();
    producer.start();
    int got = consumer.get();
    long end = System.nanoTime();
    double cpu = (processCpuNanos() - cpu0) / 1e9;
    Map<String, Double> byStage = stages.secondsByStage();
    producer.join();
    if (got < n) {
      throw new IllegalStateException(path + ": the consumer got only " + got + " of " + n + " records");
    }
    return new Run(path, n, (end - start) / 1e9, latency, cpu, byStage);
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  /** A consumer assigned to every partition of {@code topic}, positioned at its end now. */
  private static KafkaConsumer<String, byte[]> endConsumer(KafkaClients clients, String topic, boolean readCommitted)
      throws InterruptedException {
    Properties cp = clients.consumer();
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    cp.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
    if (readCommitted) {
      cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    }
    KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> tps = partitions(c, topic);
    c.assign(tps);
    c.seekToEnd(tps);
    tps.forEach(c::position); // resolve the end now, before producing
    return c;
  }

  private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> c, String topic)
      throws InterruptedException {
    List<TopicPartition> tps = new ArrayList<>();
    for (int attempt = 0; tps.isEmpty() && attempt < 100; attempt++) {
      for (PartitionInfo i : c.partitionsFor(topic)) {
        tps.add(new TopicPartition(topic, i.partition()));
      }
      if (tps.isEmpty()) {
        Thread.sleep(100); // a fresh topic's metadata takes a moment to propagate
      }
    }
    return tps;
  }

  /**
   * Holds task {@code i} back until its due time at {@code rate} tasks/s from {@code startNs}
   * (no pacing when {@code rate} is 0). Due times are absolute, so a late park is made up by the
   * next tasks; waits under 200 µs are skipped, so tasks leave in small bursts, not one per park.
   */
  static void pace(long startNs, int i, double rate) {
    if (rate <= 0) {
      return;
    }
    long wait = startNs + (long) (i * 1e9 / rate) - System.nanoTime();
    if (wait > 200_000) {
      LockSupport.parkNanos(wait);
    }
  }

  /** CPU time of this whole process so far: broker, clients and worker all run in it. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static long nowNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
