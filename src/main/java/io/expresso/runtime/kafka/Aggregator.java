package io.expresso.runtime.kafka;

import com.google.protobuf.InvalidProtocolBufferException;
import io.expresso.proto.v1.Result;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads {@code expresso.results} from the beginning, keeps the results of one experiment (or all),
 * and de-duplicates them by task id: a report holds each task once by construction. Results are produced at least once (a task run twice writes two records
 * under its id), so this is the one place every reader counts a task once. Which result of a task
 * counts is {@link ResultMerge}'s rule (the first success, else the latest error): a result that
 * replaces an error is reported to listeners as superseding it, any other repeat as a duplicate
 * that is never counted; both are duplicate records ({@link #duplicateRecords()}).
 *
 * <p>What is kept of each task is a {@link KeptResults}: by default {@link KeptResults.All}, every
 * counted result (as bytes), for readers that read an experiment once and report it ({@code
 * results}, report files, the robustness executor); with {@link #summariesOnly} {@link
 * KeptResults.OutcomesOnly}, a bounded window of task ids and their outcomes, for the long-lived
 * readers of {@code up} and {@code watch} whose listeners keep summaries. Runs on its own thread;
 * {@link ResultListener}s hook into the stream.
 */
public final class Aggregator implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Aggregator.class);

  private final KafkaClients clients;
  private final String experiment;
  private final List<ResultListener> listeners = new CopyOnWriteArrayList<>();
  private KeptResults kept = new KeptResults.All();
  private int uniqueCount;
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final Map<TopicPartition, Long> endAtStart = new java.util.HashMap<>();
  private volatile boolean caughtUp;
  private int duplicates;
  private int superseded;
  private int undecodable;
  private volatile boolean running = true;
  private boolean fromNow;
  private volatile Thread thread;
  private volatile long lastHealthyMs = System.currentTimeMillis();
  private volatile String lastError;
  private KafkaConsumer<String, byte[]> consumer;

  /**
   * @param bootstrap a plaintext cluster's bootstrap servers (the embedded broker, tests)
   * @param experiment the experiment to keep, or {@code null} for every experiment
   */
  public Aggregator(String bootstrap, String experiment) {
    this(KafkaClients.of(bootstrap), experiment);
  }

  /**
   * @param clients how to reach the cluster
   * @param experiment the experiment to keep, or {@code null} for every experiment
   */
  public Aggregator(KafkaClients clients, String experiment) {
    this.clients = clients;
    this.experiment = experiment;
  }

  public Aggregator addListener(ResultListener listener) {
    listeners.add(listener);
    return this;
  }

  /**
   * Skips what the results topic already holds when reading begins: only results written from
   * {@link #start} on are read (if the topic does not exist yet, everything is read). For
   * measurements that must not pay for earlier runs' results; call before {@link #start}.
   */
  public Aggregator fromNow() {
    this.fromNow = true;
    return this;
  }

  /**
   * Keeps no results, only which task ids were read and whether each one's kept result succeeded,
   * in a {@link TaskIdWindow} (at most 32 MiB): for long-lived readers whose listeners keep
   * summaries. A repeat of a task that has left the window (more than 1.5 million distinct tasks
   * later) is taken for a first result. {@link #results}, {@link #result} and {@link
   * #succeededTaskIds()} then throw. Call before {@link #start}.
   */
  public Aggregator summariesOnly() {
    return summariesOnly(new TaskIdWindow());
  }

  /** {@link #summariesOnly()} with the given window (tests). */
  Aggregator summariesOnly(TaskIdWindow w) {
    this.kept = new KeptResults.OutcomesOnly(w);
    return this;
  }

  /** Starts reading on a daemon thread. */
  public Aggregator start() {
    Properties p = clients.consumer();
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    // An idle fetch waits at the broker for Kafka's default 500 ms: a result still arrives at once (a
    // waiting fetch completes when its partition's committed end moves). At 20 ms, an idle `expresso
    // up` spent a fifth of a core on 50 empty fetches a second and the JIT they kept busy, taken from
    // a training on the same cores (docs/results/robustness-side-by-side.md).
    p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "500");
    consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    if (fromNow) {
      // position at the end before start returns, so nothing committed after it is missed
      refreshAssignment();
      fromNow = false;
    }
    Thread t = new Thread(this::loop, "expresso-aggregator");
    t.setDaemon(true);
    thread = t;
    t.start();
    return this;
  }

  private void loop() {
    long lastRefresh = 0;
    int failures = 0;
    try {
      while (running) {
        try {
          long now = System.currentTimeMillis();
          if (now - lastRefresh > 2000) {
            refreshAssignment();
            lastRefresh = now;
          }
          if (assigned.isEmpty()) {
            Thread.sleep(100);
            continue;
          }
          ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(100));
          for (ConsumerRecord<String, byte[]> r : polled) {
            accept(r);
          }
          if (!polled.isEmpty()) {
            // wake waiters once per poll, not per record: a wake-up per record cost the waiting
            // thread and this one a context switch each at tens of thousands of results a second
            synchronized (this) {
              notifyAll();
            }
          }
          if (!caughtUp) {
            checkCaughtUp();
          }
          if (System.currentTimeMillis() - lastHealthyMs > 5000) {
            // an empty poll does not prove the broker answers (the consumer retries silently);
            // a list-offsets request does, and throws after 5 s when it does not
            consumer.endOffsets(assigned, Duration.ofSeconds(5));
            lastHealthyMs = System.currentTimeMillis();
            lastError = null;
          }
          failures = 0;
        } catch (WakeupException e) {
          throw e;
        } catch (RuntimeException e) {
          // a broker outage or timeout: the consumer keeps its positions, so wait and read on
          failures++;
          lastError = e.toString();
          long backoff = Math.min(30_000, 500L << Math.min(6, failures - 1));
          LOG.warn("aggregator: cannot read {} ({}); retrying in {} ms", Topics.RESULTS, e.toString(), backoff);
          Thread.sleep(backoff);
        }
      }
    } catch (WakeupException | InterruptedException e) {
      // closing
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /**
   * Whether this aggregator is current: it read from the broker within the last {@code staleAfter}
   * (it retries through outages, and says here that it is behind).
   */
  public boolean healthy(Duration staleAfter) {
    return System.currentTimeMillis() - lastHealthyMs <= staleAfter.toMillis();
  }

  /** The last read error, or null if the broker has answered since. */
  public String lastError() {
    return lastError;
  }

  /** Picks up the results topic's partitions (the topic may appear after we start). */
  private void refreshAssignment() {
    List<PartitionInfo> infos;
    try {
      infos = consumer.partitionsFor(Topics.RESULTS, Duration.ofSeconds(5));
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      return;
    }
    if (infos == null || infos.size() == assigned.size()) {
      return;
    }
    List<TopicPartition> fresh = new ArrayList<>();
    for (PartitionInfo i : infos) {
      TopicPartition tp = new TopicPartition(i.topic(), i.partition());
      if (!assigned.contains(tp)) {
        fresh.add(tp);
      }
    }
    boolean first = assigned.isEmpty();
    assigned.addAll(fresh);
    consumer.assign(new ArrayList<>(assigned));
    if (fromNow && first) {
      consumer.seekToEnd(fresh);
      fresh.forEach(tp -> consumer.position(tp, Duration.ofSeconds(10))); // fix the end now, not at the first poll
      synchronized (this) {
        caughtUp = true;
        notifyAll();
      }
      return;
    }
    consumer.seekToBeginning(fresh);
    if (!caughtUp) {
      // read_committed: the end offsets are the last stable offsets, what is readable now
      endAtStart.putAll(consumer.endOffsets(fresh, Duration.ofSeconds(10)));
    }
  }

  private void checkCaughtUp() {
    for (Map.Entry<TopicPartition, Long> e : endAtStart.entrySet()) {
      if (consumer.position(e.getKey(), Duration.ofSeconds(10)) < e.getValue()) {
        return;
      }
    }
    synchronized (this) {
      caughtUp = true;
      notifyAll();
    }
  }

  /**
   * Waits until everything the results topic held when reading began has been read;
   * true if so within {@code timeout}.
   */
  public synchronized boolean awaitCaughtUp(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!caughtUp) {
      long left = end - System.nanoTime();
      if (left <= 0 || thread == null || !thread.isAlive()) {
        return caughtUp;
      }
      wait(Math.max(1, Math.min(left / 1_000_000, 500)));
    }
    return true;
  }

  private void accept(ConsumerRecord<String, byte[]> r) {
    Result result;
    try {
      result = Result.parseFrom(r.value());
    } catch (InvalidProtocolBufferException | NullPointerException e) {
      synchronized (this) {
        undecodable++;
      }
      LOG.warn("skipping undecodable result record {}-{}@{}", r.topic(), r.partition(), r.offset());
      return;
    }
    if (experiment != null && !experiment.equals(result.getExperimentId())) {
      return;
    }
    Merge merge;
    synchronized (this) {
      merge = merge(result, r.value());
    }
    for (ResultListener l : listeners) {
      try {
        switch (merge) {
          case FIRST -> l.onResult(result);
          case SUPERSEDES -> l.onSuperseded(result);
          case DUPLICATE -> l.onDuplicate(result);
        }
      } catch (RuntimeException e) {
        LOG.warn("result listener {} failed: {}", l, e.toString());
      }
    }
  }

  /** What a result record did to its task's kept result. */
  private enum Merge { FIRST, SUPERSEDES, DUPLICATE }

  /** Applies {@link ResultMerge} to what is kept of the result's task; the caller holds the lock. */
  private Merge merge(Result result, byte[] value) {
    String id = result.getTaskId();
    boolean ok = ResultMerge.succeeded(result);
    int before = kept.outcome(id);
    if (before == KeptResults.ABSENT) {
      kept.keep(id, value, ok);
      uniqueCount++;
      return Merge.FIRST;
    }
    if (ResultMerge.supersedes(before == 1)) {
      kept.keep(id, value, ok);
      superseded++;
      return Merge.SUPERSEDES;
    }
    duplicates++;
    return Merge.DUPLICATE;
  }

  /** Waits until {@code n} unique results arrived or {@code timeout} passed; true if they did. */
  public synchronized boolean awaitUnique(int n, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (uniqueCount < n) {
      long left = end - System.nanoTime();
      if (left <= 0 || thread == null || !thread.isAlive()) {
        return uniqueCount >= n;
      }
      wait(Math.max(1, Math.min(left / 1_000_000, 500)));
    }
    return true;
  }

  /**
   * The unique results so far, one per task id as {@link ResultMerge} picks it, in the order their
   * task ids first arrived (decoded on each call).
   */
  public List<Result> results() {
    List<byte[]> all;
    synchronized (this) {
      all = new ArrayList<>(kept.results().values());
    }
    List<Result> out = new ArrayList<>(all.size());
    for (byte[] b : all) {
      out.add(KeptResults.decode(b));
    }
    return out;
  }

  /** The result of {@code taskId}, if it has arrived. */
  public Optional<Result> result(String taskId) {
    byte[] b;
    synchronized (this) {
      b = kept.results().get(taskId);
    }
    return b == null ? Optional.empty() : Optional.of(KeptResults.decode(b));
  }

  /** The task ids whose result so far is a success. */
  public Set<String> succeededTaskIds() {
    Set<String> ids = new HashSet<>();
    for (Result r : results()) {
      if (ResultMerge.succeeded(r)) {
        ids.add(r.getTaskId());
      }
    }
    return ids;
  }

  /**
   * The task ids of {@code experiment} that already have a successful result: reads the results
   * topic at least up to the end offsets it had when called, then
   * stops. For publishers that resume an experiment; the topic must exist ({@link Topics#ensure}).
   *
   * @throws IllegalStateException if the topic cannot be read to its end within {@code timeout}
   */
  public static Set<String> succeededTaskIds(String bootstrap, String experiment, Duration timeout) {
    return succeededTaskIds(KafkaClients.of(bootstrap), experiment, timeout);
  }

  /** {@link #succeededTaskIds(String, String, Duration)} on the cluster {@code clients} reach. */
  public static Set<String> succeededTaskIds(KafkaClients clients, String experiment, Duration timeout) {
    try (Aggregator a = new Aggregator(clients, experiment).start()) {
      if (!a.awaitCaughtUp(timeout)) {
        throw new IllegalStateException("could not read " + Topics.RESULTS + " on " + clients.bootstrap() + " to its end within "
            + timeout.toSeconds() + " s");
      }
      return a.succeededTaskIds();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading " + Topics.RESULTS, e);
    }
  }

  /** Tasks read (each once, whatever the number of its records). */
  public synchronized int uniqueCount() {
    return uniqueCount;
  }

  /**
   * Result records for a task id already read (a task run twice, a redelivery, a re-published
   * task): {@link #duplicatesSeen()} plus {@link #supersededSeen()}. Each task still counts once.
   */
  public synchronized int duplicateRecords() {
    return duplicates + superseded;
  }

  /** Records for a task id already read that changed nothing (its kept result had succeeded); never counted. */
  public synchronized int duplicatesSeen() {
    return duplicates;
  }

  /** Error results replaced by a later result of their task (a retry's success, or a newer error). */
  public synchronized int supersededSeen() {
    return superseded;
  }

  public synchronized int undecodableSeen() {
    return undecodable;
  }

  @Override
  public void close() {
    running = false;
    Thread t = thread;
    if (t != null) {
      consumer.wakeup();
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
