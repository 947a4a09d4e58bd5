package io.expresso.runtime.actors;

import io.expresso.runtime.Attempts;
import io.expresso.runtime.Cancellation;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.pekko.actor.typed.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's link to Kafka, on one thread: polls tasks, hands them to the device pool, and
 * commits each partition's results with its offset in one transaction as the partition's
 * contiguous prefix of finished tasks grows, so a long task holds back only its own partition.
 *
 * <p>Membership: the group uses cooperative incremental rebalancing (only partitions that change
 * owner are revoked) and static membership ({@code group.instance.id} = the worker id, so a
 * restart within the session timeout moves nothing). A revoked partition's queued tasks are
 * dropped at once (so are tasks still waiting for the worker's one training slot), its running
 * tasks get {@link Settings#revokeDrain} to finish, then are
 * cancelled and handed over. Offsets go to the transaction with the consumer's group metadata
 * (generation and member id), so a worker that lost its partitions (paused past the session
 * timeout) is fenced: its commit fails and its results are discarded.
 */
final class TaskLoop {

  private static final Logger LOG = LoggerFactory.getLogger(TaskLoop.class);

  /** How long a task cancelled for a hand-over or a stop gets to notice before it is given up on. */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(30);

  /** Records one poll returns at most. */
  static final int MAX_POLL_RECORDS = 2000;

  /** Tasks held (queued, running or finished but not committed) before the loop stops fetching. */
  static final int MAX_BUFFERED = 20_000;

  /** Producer batch size per partition, in bytes. */
  static final int PRODUCER_BATCH_BYTES = 256 * 1024;

  /** What the loop needs to know. */
  record Settings(KafkaClients kafka, String workerId, String group, Duration commitInterval, Duration revokeDrain,
      Duration sessionTimeout, boolean leaveOnStop) {}

  private final Settings settings;
  private final ActorRef<DevicePool.Command> pool;
  private final Attempts attempts;
  private final TaskObserver observer;
  private final Runnable onFatal;
  private final Thread thread;
  private final Map<TopicPartition, PartitionProgress> owned = new LinkedHashMap<>();
  private final AtomicReference<Duration> stopGrace = new AtomicReference<>();
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private KafkaConsumer<String, byte[]> consumer;
  private KafkaProducer<String, byte[]> producer;
  private boolean paused;
  private long lastCommit;

  /** {@code onFatal} runs when the loop cannot go on (a duplicate worker id): the worker should stop. */
  TaskLoop(Settings settings, ActorRef<DevicePool.Command> pool, Attempts attempts, TaskObserver observer, Runnable onFatal) {
    this.settings = settings;
    this.pool = pool;
    this.attempts = attempts;
    this.observer = observer;
    this.onFatal = onFatal;
    this.thread = new Thread(this::run, "expresso-tasks-" + settings.workerId());
  }

  void start() {
    thread.start();
  }

  /**
   * Stops: no new task starts, running ones get {@code grace} to finish (their results commit as
   * they do), the rest are cancelled and handed back; then the worker leaves the group.
   * Completes when all that is done.
   */
  CompletableFuture<Void> stop(Duration grace) {
    stopGrace.compareAndSet(null, grace); // the loop sees it within one poll (50 ms)
    if (!thread.isAlive() && !stopped.isDone()) {
      stopped.complete(null);
    }
    return stopped;
  }

  private boolean stopping() {
    return stopGrace.get() != null;
  }

  private void run() {
    try {
      while (!stopping()) {
        try {
          session();
        } catch (DuplicateWorkerException e) {
          LOG.error("worker {}: {}; this worker stops", settings.workerId(), e.getMessage());
          giveUp(new ArrayList<>(owned.keySet()));
          onFatal.run();
          break;
        } catch (Exception e) {
          if (stopping()) {
            break;
          }
          if (e instanceof FencedInstanceIdException) {
            LOG.error("worker {}: another worker joined the group with the same --id; this one stops", settings.workerId());
            giveUp(new ArrayList<>(owned.keySet()));
            onFatal.run();
            break;
          }
          observer.onRestart();
          LOG.warn("worker {}: task loop failed ({}); its tasks are handed back and it starts again in 2 s",
              settings.workerId(), e.toString());
          giveUp(new ArrayList<>(owned.keySet()));
          sleep(2000);
        }
      }
    } finally {
      stopped.complete(null);
    }
  }

  /** One consumer and producer: serves until stopped, then drains; a client failure ends it. */
  private void session() {
    producer = new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer());
    boolean left = false;
    try {
      producer.initTransactions();
      consumer = new KafkaConsumer<>(consumerConfig(), new StringDeserializer(), new ByteArrayDeserializer());
      consumer.subscribe(TaskKind.topics(), new Rebalance());
      paused = false;
      lastCommit = System.nanoTime();
      while (!stopping()) {
        accept(consumer.poll(Duration.ofMillis(50)));
        flowControl();
        if (System.nanoTime() - lastCommit >= settings.commitInterval().toNanos()) {
          commit();
        }
      }
      drainForStop(stopGrace.get());
      left = true;
    } finally {
      close(left);
    }
  }

  private void accept(ConsumerRecords<String, byte[]> records) {
    if (records.isEmpty()) {
      return;
    }
    List<Job> jobs = new ArrayList<>(records.count());
    for (TopicPartition tp : records.partitions()) {
      PartitionProgress p = owned.get(tp);
      if (p == null) {
        continue; // not ours any more (revoked in this very poll)
      }
      for (ConsumerRecord<String, byte[]> r : records.records(tp)) {
        Job j = new Job(r, p.attempts);
        p.jobs.add(j);
        jobs.add(j);
      }
    }
    if (!jobs.isEmpty()) {
      pool.tell(new DevicePool.Submit(jobs));
    }
  }

  /** Stops fetching while too many tasks are held; fetches again once half are committed. */
  private void flowControl() {
    int held = 0;
    for (PartitionProgress p : owned.values()) {
      held += p.jobs.size();
    }
    if (!paused && held >= MAX_BUFFERED) {
      consumer.pause(consumer.assignment());
      paused = true;
    } else if (paused && held <= MAX_BUFFERED / 2) {
      consumer.resume(consumer.assignment());
      paused = false;
    }
  }

  /**
   * Commits, in one transaction, every owned partition's results up to its first unfinished task,
   * with the offsets after them. A fenced commit (this worker lost the partitions) is aborted: its
   * results are discarded and the tasks are someone else's now.
   */
  private void commit() {
    lastCommit = System.nanoTime();
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    Map<TopicPartition, Integer> counts = new HashMap<>();
    List<ProducerRecord<String, byte[]>> out = new ArrayList<>();
    for (Map.Entry<TopicPartition, PartitionProgress> e : owned.entrySet()) {
      int n = 0;
      long next = -1;
      for (Job j : e.getValue().jobs) {
        if (!j.committable()) {
          break;
        }
        out.addAll(j.outcome().join().records());
        next = j.offset() + 1;
        n++;
      }
      if (n > 0) {
        offsets.put(e.getKey(), new OffsetAndMetadata(next));
        counts.put(e.getKey(), n);
      }
    }
    if (offsets.isEmpty()) {
      return;
    }
    AtomicReference<Exception> sendFailed = new AtomicReference<>();
    try {
      producer.beginTransaction();
      for (ProducerRecord<String, byte[]> r : out) {
        producer.send(r, (md, ex) -> {
          if (ex != null) {
            sendFailed.compareAndSet(null, ex);
          }
        });
      }
      producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
      producer.commitTransaction();
    } catch (ProducerFencedException | FencedInstanceIdException e) {
      throw new DuplicateWorkerException("another process runs as worker " + settings.workerId()
          + " (worker ids must be unique in the fleet): " + e.getMessage(), e);
    } catch (CommitFailedException e) {
      LOG.warn("worker {}: commit fenced by the group ({}); the transaction is aborted: its results commit with the"
          + " next one if this worker still owns their partitions, else their new owner runs them", settings.workerId(),
          e.getMessage());
      abort();
      return;
    } catch (KafkaException e) {
      LOG.warn("worker {}: commit failed ({}{}); retrying", settings.workerId(), e.toString(),
          sendFailed.get() == null ? "" : ", first send failure: " + sendFailed.get());
      abort();
      return;
    }
    for (Map.Entry<TopicPartition, Integer> e : counts.entrySet()) {
      PartitionProgress p = owned.get(e.getKey());
      for (int i = 0; i < e.getValue(); i++) {
        p.jobs.poll();
      }
      p.attempts.committed(offsets.get(e.getKey()).offset());
    }
  }

  private void abort() {
    try {
      producer.abortTransaction();
    } catch (KafkaException x) {
      throw new IllegalStateException("cannot abort the transaction: " + x.getMessage(), x);
    }
  }

  /**
   * Gives partitions up cleanly: queued tasks are dropped, running ones get {@code drain} to finish
   * (committing as they do), then are cancelled with {@code why}; what finished is committed and
   * the starts that left no result are uncounted.
   */
  private void handOver(Collection<TopicPartition> parts, Duration drain, Cancellation.Reason why) {
    List<Job> jobs = new ArrayList<>();
    for (TopicPartition tp : parts) {
      PartitionProgress p = owned.get(tp);
      if (p != null) {
        jobs.addAll(p.jobs);
      }
    }
    int dropped = 0;
    for (Job j : jobs) {
      dropped += j.drop() ? 1 : 0;
    }
    observer.onHandedBack(dropped);
    // a task still waiting for this worker's training slot has done nothing: no drain for it
    jobs.stream().filter(j -> j.running() && j.cancellation().isWaiting()).forEach(j -> j.cancellation().cancel(why));
    long deadline = System.nanoTime() + drain.toNanos();
    while (jobs.stream().anyMatch(Job::running) && System.nanoTime() < deadline) {
      waitAndCommit();
    }
    if (jobs.stream().anyMatch(Job::running)) {
      jobs.stream().filter(Job::running).forEach(j -> j.cancellation().cancel(why));
      long cancelDeadline = System.nanoTime() + CANCEL_GRACE.toNanos();
      while (jobs.stream().anyMatch(Job::running) && System.nanoTime() < cancelDeadline) {
        waitAndCommit();
      }
      if (jobs.stream().anyMatch(Job::running)) {
        LOG.warn("worker {}: {} cancelled task(s) still running after {} s; their results will be ignored",
            settings.workerId(), jobs.stream().filter(Job::running).count(), CANCEL_GRACE.toSeconds());
      }
    }
    commit();
    for (TopicPartition tp : parts) {
      PartitionProgress p = owned.remove(tp);
      if (p != null) {
        p.attempts.handBack(p.jobs.stream().filter(j -> !j.running()).map(Job::offset).toList());
      }
    }
  }

  /** Partitions lost (another worker owns them now): drop and cancel their tasks, commit nothing. */
  private void giveUp(Collection<TopicPartition> parts) {
    int dropped = 0;
    for (TopicPartition tp : parts) {
      PartitionProgress p = owned.remove(tp);
      if (p == null) {
        continue;
      }
      for (Job j : p.jobs) {
        if (j.drop()) {
          dropped++;
        } else if (j.running()) {
          j.cancellation().cancel(Cancellation.Reason.REVOKED);
        }
      }
    }
    observer.onHandedBack(dropped);
  }

  private void waitAndCommit() {
    sleep(Math.max(10, Math.min(200, settings.commitInterval().toMillis())));
    if (System.nanoTime() - lastCommit >= settings.commitInterval().toNanos()) {
      commit();
    }
  }

  /** SIGTERM or close: keeps polling (so the group can rebalance) with every partition paused. */
  private void drainForStop(Duration grace) {
    List<Job> jobs = new ArrayList<>();
    for (PartitionProgress p : owned.values()) {
      jobs.addAll(p.jobs);
    }
    jobs.forEach(Job::drop);
    long deadline = System.nanoTime() + grace.toNanos();
    boolean cancelled = false;
    long cancelDeadline = 0;
    while (true) {
      boolean busy = owned.values().stream().anyMatch(p -> p.jobs.stream().anyMatch(Job::running));
      if (!busy) {
        break;
      }
      if (!cancelled && System.nanoTime() >= deadline) {
        LOG.warn("worker {}: stop grace of {} s is over; cancelling the tasks still running", settings.workerId(),
            grace.toSeconds());
        owned.values().forEach(p -> p.jobs.stream().filter(Job::running)
            .forEach(j -> j.cancellation().cancel(Cancellation.Reason.STOPPING)));
        cancelled = true;
        cancelDeadline = System.nanoTime() + CANCEL_GRACE.toNanos();
      }
      if (cancelled && System.nanoTime() >= cancelDeadline) {
        break;
      }
      consumer.pause(consumer.assignment());
      consumer.poll(Duration.ofMillis(50)); // keeps the membership answering rebalances; takes nothing

      if (System.nanoTime() - lastCommit >= settings.commitInterval().toNanos()) {
        commit();
      }
    }
    commit();
    for (PartitionProgress p : owned.values()) {
      p.attempts.handBack(p.jobs.stream().filter(j -> !j.running()).map(Job::offset).toList());
    }
    owned.clear();
  }

  private void close(boolean leave) {
    if (consumer != null) {
      try {
        consumer.close(Duration.ofSeconds(10));
      } catch (Exception e) {
        LOG.debug("closing the consumer: {}", e.toString());
      }
    }
    try {
      producer.close(Duration.ofSeconds(10));
    } catch (Exception e) {
      LOG.debug("closing the producer: {}", e.toString());
    }
    if (leave && settings.leaveOnStop()) {
      leaveGroup();
    }
  }

  /**
   * A static member's close does not leave the group (that is what lets a restart move nothing),
   * so a worker that stops for good says it left, and the group moves its partitions at once
   * instead of after the session timeout.
   */
  private void leaveGroup() {
    Properties p = settings.kafka().admin();
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
    try (Admin admin = Admin.create(p)) {
      admin.removeMembersFromConsumerGroup(settings.group(), new RemoveMembersFromConsumerGroupOptions(
          List.of(new MemberToRemove(settings.workerId())))).all().get();
    } catch (Exception e) {
      LOG.info("worker {}: could not leave the group ({}); its partitions move after the session timeout",
          settings.workerId(), e.toString());
    }
  }

  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> parts) {
      if (parts.isEmpty()) {
        return;
      }
      observer.onRebalance("assigned", parts.size());
      attempts.awaitCaughtUp(Duration.ofSeconds(60));
      for (TopicPartition tp : parts) {
        owned.put(tp, new PartitionProgress(attempts.open(tp, consumer.position(tp))));
      }
      if (paused || stopping()) {
        consumer.pause(parts);
      }
      LOG.info("worker {}: assigned {}", settings.workerId(), parts);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> parts) {
      if (parts.isEmpty()) {
        return;
      }
      observer.onRebalance("revoked", parts.size());
      LOG.info("worker {}: revoked {}", settings.workerId(), parts);
      handOver(parts, settings.revokeDrain(), stopping() ? Cancellation.Reason.STOPPING : Cancellation.Reason.REVOKED);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> parts) {
      if (parts.isEmpty()) {
        return;
      }
      observer.onRebalance("lost", parts.size());
      LOG.warn("worker {}: lost {} (no longer a member of the group); their tasks are dropped", settings.workerId(), parts);
      giveUp(parts);
    }
  }

  /** Another live process uses this worker's id (static member id, transactional id): not recoverable by a restart. */
  private static final class DuplicateWorkerException extends RuntimeException {
    DuplicateWorkerException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** An owned partition: its tasks in offset order, from the first uncommitted one. */
  private static final class PartitionProgress {
    final ArrayDeque<Job> jobs = new ArrayDeque<>();
    final Attempts.Partition attempts;

    PartitionProgress(Attempts.Partition attempts) {
      this.attempts = attempts;
    }
  }

  private Properties consumerConfig() {
    Properties p = settings.kafka().consumer();
    p.put(ConsumerConfig.GROUP_ID_CONFIG, settings.group());
    p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, settings.workerId());
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.workerId());
    p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, String.valueOf(settings.sessionTimeout().toMillis()));
    p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG,
        String.valueOf(Math.max(100, Math.min(3000, settings.sessionTimeout().toMillis() / 4))));
    // the revocation callback waits for running tasks: the poll interval (also the rebalance
    // timeout) must cover that wait and the cancellation grace after it
    p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
        String.valueOf(settings.revokeDrain().plus(CANCEL_GRACE).plusSeconds(60).toMillis()));
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(MAX_POLL_RECORDS));
    return p;
  }

  private Properties producerConfig() {
    Properties p = settings.kafka().producer();
    // stable per worker: a restarted worker fences its previous incarnation's open transaction
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "expresso-" + settings.workerId());
    p.put(ProducerConfig.CLIENT_ID_CONFIG, settings.workerId() + "-results");
    p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "60000");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "2");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(PRODUCER_BATCH_BYTES));
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
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
