package io.expresso.runtime;

import io.expresso.proto.v1.AttemptRun;
import io.expresso.proto.v1.PartitionAttempts;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable count of attempts to run each task, on the compacted topic {@value Topics#ATTEMPTS}
 * (one record per task partition, see {@code attempts.proto}). Before a device starts tasks, the
 * partition's owner writes them as started and waits for the broker's ack; a task whose result
 * commits drops out; a task handed back cleanly (its partition moved, the worker stopped) is
 * uncounted. So what is left counted is the starts that took a worker down or were lost with it,
 * and the next owner reads it when the partition is assigned.
 *
 * <p>Cheap tasks are counted a chunk at a time (one write per chunk, not per task); a task that
 * was counted before runs alone (see the worker's {@code DevicePool}), so one crashing task charges its
 * innocent chunk-mates at most once.
 */
public final class Attempts implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Attempts.class);

  private final String workerId;
  private final KafkaProducer<String, byte[]> producer;
  private final KafkaConsumer<String, byte[]> tail;
  private final Thread tailThread;
  /** Latest record per task partition, as read from the topic. */
  private final Map<String, PartitionAttempts> latest = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<CompletableFuture<Void>> catchUps = new ConcurrentLinkedQueue<>();
  private volatile boolean closed;

  public Attempts(KafkaClients kafka, String workerId) {
    this.workerId = workerId;
    Properties pp = kafka.producer();
    pp.put(ProducerConfig.ACKS_CONFIG, "all");
    pp.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "0");
    pp.put(ProducerConfig.CLIENT_ID_CONFIG, workerId + "-attempts");
    producer = new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
    Properties cp = kafka.consumer();
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.CLIENT_ID_CONFIG, workerId + "-attempts-reader");
    tail = new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer());
    tailThread = new Thread(this::follow, "expresso-attempts-" + workerId);
    tailThread.setDaemon(true);
    tailThread.start();
  }

  /** Reads the topic from the start and follows it, answering catch-up requests between polls. */
  private void follow() {
    try {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo p : tail.partitionsFor(Topics.ATTEMPTS, Duration.ofSeconds(60))) {
        parts.add(new TopicPartition(p.topic(), p.partition()));
      }
      tail.assign(parts);
      tail.seekToBeginning(parts);
      while (!closed) {
        List<CompletableFuture<Void>> waiting = new ArrayList<>();
        for (CompletableFuture<Void> f; (f = catchUps.poll()) != null; ) {
          waiting.add(f);
        }
        Map<TopicPartition, Long> end = waiting.isEmpty() ? Map.of() : tail.endOffsets(parts, Duration.ofSeconds(30));
        do {
          for (ConsumerRecord<String, byte[]> r : tail.poll(Duration.ofMillis(waiting.isEmpty() ? 200 : 10))) {
            if (r.value() == null) {
              latest.remove(r.key());
            } else {
              try {
                latest.put(r.key(), PartitionAttempts.parseFrom(r.value()));
              } catch (com.google.protobuf.InvalidProtocolBufferException e) {
                LOG.warn("ignoring an undecodable attempts record for {} at {}@{}", r.key(), r.partition(), r.offset());
              }
            }
          }
        } while (!closed && !caughtUp(end));
        waiting.forEach(f -> f.complete(null));
      }
    } catch (WakeupException e) {
      // closing
    } catch (Exception e) {
      if (!closed) {
        LOG.error("worker {}: the attempts reader stopped: {}", workerId, e.toString());
        for (CompletableFuture<Void> f; (f = catchUps.poll()) != null; ) {
          f.completeExceptionally(e);
        }
      }
    } finally {
      tail.close(Duration.ZERO);
    }
  }

  private boolean caughtUp(Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (tail.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Blocks until every attempts record written before this call has been read. */
  public void awaitCaughtUp(Duration timeout) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    catchUps.add(f);
    try {
      f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot read " + Topics.ATTEMPTS + " up to its end: " + e, e);
    }
  }

  /** The attempt counts of {@code tp}'s tasks at and after {@code committed}, as its last owner left them. */
  public Partition open(TopicPartition tp, long committed) {
    PartitionAttempts rec = latest.get(key(tp));
    NavigableMap<Long, Integer> counts = new TreeMap<>();
    if (rec != null) {
      for (AttemptRun run : rec.getRunsList()) {
        for (long o = Math.max(run.getFromOffset(), committed); o <= run.getToOffset(); o++) {
          counts.put(o, run.getAttempts());
        }
      }
    }
    return new Partition(tp, counts, committed);
  }

  static String key(TopicPartition tp) {
    return tp.topic() + "/" + tp.partition();
  }

  @Override
  public void close() {
    closed = true;
    tail.wakeup();
    try {
      tailThread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(10));
  }

  /**
   * One owned partition's attempt counts: those inherited from earlier owners (few: only tasks that
   * took a worker down) plus the starts counted here, for offsets not yet committed. The starts
   * counted here are kept as ranges of offsets, since a chunk is a run of consecutive offsets: the
   * record written before each chunk is a handful of runs, not one entry per task. Thread-safe:
   * devices count starts, the loop commits and hands back.
   */
  public final class Partition {
    private final TopicPartition tp;
    private final NavigableMap<Long, Integer> inherited;
    /** Offsets this owner counted a start for and that are not committed: from → to, inclusive, disjoint. */
    private final NavigableMap<Long, Long> mine = new TreeMap<>();
    private long committed;
    private long maxStarted = -1;

    private Partition(TopicPartition tp, NavigableMap<Long, Integer> inherited, long committed) {
      this.tp = tp;
      this.inherited = inherited;
      this.committed = committed;
    }

    /** Starts by earlier owners (or earlier sessions of this one); a task starts once per owner, so this owner's own count is not prior. */
    public synchronized int prior(long offset) {
      return inherited.getOrDefault(offset, 0);
    }

    private boolean isMine(long offset) {
      Map.Entry<Long, Long> e = mine.floorEntry(offset);
      return e != null && e.getValue() >= offset;
    }

    /**
     * Counts a start of each of {@code offsets} and returns once the broker has it. With {@code
     * lease} > 0 it also counts the next {@code lease} offsets after them, so that the chunks that
     * follow (cheap tasks, many to a chunk) start without a write of their own; a crash charges
     * those not yet started once, and only tasks never charged before are leased.
     */
    public void started(Collection<Long> offsets, int lease) throws Exception {
      byte[] value;
      synchronized (this) {
        long max = Long.MIN_VALUE;
        boolean leased = true;
        for (long o : offsets) {
          leased &= isMine(o);
          max = Math.max(max, o);
        }
        maxStarted = Math.max(maxStarted, max);
        if (leased) {
          return; // counted by an earlier write: each offset starts once per owner
        }
        for (long o : offsets) {
          addMine(o);
        }
        for (long o = max + 1; o <= max + lease; o++) {
          if (!inherited.containsKey(o)) {
            addMine(o);
          }
        }
        value = encode();
      }
      write(value);
    }

    private void addMine(long o) {
      Map.Entry<Long, Long> below = mine.floorEntry(o);
      Map.Entry<Long, Long> above = mine.higherEntry(o);
      long from = o;
      long to = o;
      if (below != null && below.getValue() == o - 1) {
        from = below.getKey();
        mine.remove(below.getKey());
      }
      if (above != null && above.getKey() == o + 1) {
        to = above.getValue();
        mine.remove(above.getKey());
      }
      mine.put(from, to);
    }

    private void removeMine(long o) {
      Map.Entry<Long, Long> e = mine.floorEntry(o);
      if (e == null || e.getValue() < o) {
        return;
      }
      mine.remove(e.getKey());
      if (e.getKey() < o) {
        mine.put(e.getKey(), o - 1);
      }
      if (e.getValue() > o) {
        mine.put(o + 1, e.getValue());
      }
    }

    /** The offsets before {@code next} have committed results: forget them. */
    public synchronized void committed(long next) {
      committed = Math.max(committed, next);
      inherited.headMap(committed).clear();
      while (!mine.isEmpty() && mine.firstKey() < committed) {
        Map.Entry<Long, Long> first = mine.pollFirstEntry();
        if (first.getValue() >= committed) {
          mine.put(committed, first.getValue());
        }
      }
    }

    /** Hands the partition back: starts counted here that left no result are uncounted (they ended cleanly). */
    public void handBack(Collection<Long> offsets) {
      byte[] value;
      synchronized (this) {
        boolean changed = false;
        for (long o : offsets) {
          if (isMine(o)) {
            removeMine(o);
            changed = true;
          }
        }
        // offsets leased ahead and never started here
        while (!mine.isEmpty() && mine.lastEntry().getValue() > maxStarted) {
          Map.Entry<Long, Long> last = mine.pollLastEntry();
          if (last.getKey() <= maxStarted) {
            mine.put(last.getKey(), maxStarted);
          }
          changed = true;
        }
        if (!changed) {
          return;
        }
        value = encode();
      }
      try {
        write(value);
      } catch (Exception e) {
        LOG.warn("worker {}: cannot record the hand-back of {} ({}); its unfinished tasks stay counted", workerId, tp, e.toString());
      }
    }

    private void write(byte[] value) throws Exception {
      producer.send(new ProducerRecord<>(Topics.ATTEMPTS, key(tp), value)).get(60, TimeUnit.SECONDS);
    }

    /** The counts at or after the committed offset as runs: my ranges, split where an inherited count differs. */
    private byte[] encode() {
      PartitionAttempts.Builder b = PartitionAttempts.newBuilder().setWorkerId(workerId)
          .setWrittenAtMs(System.currentTimeMillis());
      NavigableMap<Long, Integer> points = new TreeMap<>(inherited.tailMap(committed, true));
      for (Map.Entry<Long, Long> r : mine.entrySet()) {
        long from = Math.max(r.getKey(), committed);
        // offsets of the range that also have an inherited count are written one by one below
        long o = from;
        for (Map.Entry<Long, Integer> special : inherited.subMap(from, true, r.getValue(), true).entrySet()) {
          if (special.getKey() > o) {
            b.addRuns(run(o, special.getKey() - 1, 1));
          }
          points.put(special.getKey(), special.getValue() + 1);
          o = special.getKey() + 1;
        }
        if (o <= r.getValue()) {
          b.addRuns(run(o, r.getValue(), 1));
        }
      }
      for (Map.Entry<Long, Integer> e : points.entrySet()) {
        b.addRuns(run(e.getKey(), e.getKey(), e.getValue()));
      }
      return b.build().toByteArray();
    }

    private AttemptRun run(long from, long to, int attempts) {
      return AttemptRun.newBuilder().setFromOffset(from).setToOffset(to).setAttempts(attempts).build();
    }
  }
}
