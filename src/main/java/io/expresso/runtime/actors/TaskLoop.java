package io.expresso.runtime.actors;

import io.expresso.runtime.kafka.Topics;
import io.expresso.runtime.Cancellation;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.ShareGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.GroupMaxSizeReachedException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.pekko.actor.typed.ActorRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's link to Kafka: one share consumer per device slot, each on its own thread, in the
 * fleet's share group. A slot acquires tasks only while it holds none, as many at a time as {@link
 * AcquireSize} says (many tiny tasks a round trip, long ones one by one), so an idle slot anywhere
 * in the fleet takes the next task and a busy one takes nothing. While its tasks run, the slot renews their acquisition locks (RENEW) every
 * third of the lock; when a task ends, its result (and dead letter) is produced and acknowledged by
 * the broker first, then the task is acknowledged: ACCEPT for a result, REJECT for an error result,
 * RELEASE for a task handed back unfinished (stop, cancellation). A worker that dies stops renewing;
 * the broker redelivers its tasks when their locks expire or its session ends. Acknowledgement is
 * not transactional, so a crash between the result and the acknowledgement runs a task twice:
 * results are keyed by task id and readers count a task once.
 *
 * <p>The share consumer of Kafka 4.4 in explicit mode: every record a poll returned must be
 * acknowledged before the next poll, and a renewed record comes back from a later poll (it cannot be
 * acknowledged until it has). So before each poll every held record that a poll returned is either
 * acknowledged for good or renewed.
 */
final class TaskLoop {

  private static final Logger LOG = LoggerFactory.getLogger(TaskLoop.class);

  /** How long a task cancelled for a stop gets to notice before it is given up on. */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(30);

  /**
   * How long an idle slot's poll waits for a task before it looks whether the worker is stopping
   * (a stop waits at most this long for an idle slot). An idle slot holds nothing, so no renewal is
   * pending that a fetch could get in the way of; a fetch still under way when the poll returns
   * delivers to the next poll.
   */
  static final Duration IDLE_POLL = Duration.ofMillis(250);

  /** A slot whose polls found no task for this long saw the queue drained (it forgets what tasks took). */
  static final Duration DRAINED_AFTER = Duration.ofSeconds(2);

  /** An idle slot's poll of its current consumer while a larger one joins: short, to look at the joining one often. */
  static final Duration JOINING_POLL = Duration.ofMillis(100);

  /**
   * How often a slot commits the acknowledgements it gave (in the background), when it does not poll
   * before: each commit is a request and a share-state write at the broker, so the acknowledgements of
   * many chunks of small tasks travel together. A task's result is produced before it is acknowledged
   * in any case; this only delays when the broker hears of it (a worker lost meanwhile runs it twice).
   */
  static final Duration ACK_COMMIT_EVERY = Duration.ofMillis(50);

  /** Renewals come every third of the lock: two chances before it expires. */
  static final int RENEWALS_PER_LOCK = 3;

  /** The lock assumed until the broker says (its default). */
  static final Duration DEFAULT_LOCK = Duration.ofSeconds(30);

  /** Producer batch size per partition, in bytes. */
  static final int PRODUCER_BATCH_BYTES = 256 * 1024;

  /**
   * What the loop needs to know.
   *
   * @param slots share consumers, one per device
   * @param acquire tasks one slot acquires per poll: fixed, or adaptive from {@code costs}
   * @param costs the worker's measured task durations
   */
  record Settings(KafkaClients kafka, String workerId, String group, int slots, AcquireSize acquire, CostModel costs) {
    Settings {
      if (slots < 1) {
        throw new IllegalArgumentException("a worker needs at least one slot");
      }
    }
  }

  private final Settings settings;
  private final ActorRef<DevicePool.Command> pool;
  private final TaskObserver observer;
  private final List<Thread> threads = new ArrayList<>();
  private final List<Slot> slots = new ArrayList<>();
  private final AtomicReference<Duration> stopGrace = new AtomicReference<>();
  private final CompletableFuture<Void> stopped = new CompletableFuture<>();
  private volatile long stopDeadline;
  private KafkaProducer<String, byte[]> producer;

  TaskLoop(Settings settings, ActorRef<DevicePool.Command> pool, TaskObserver observer) {
    this.settings = settings;
    this.pool = pool;
    this.observer = observer;
  }

  void start() {
    producer = new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer());
    for (int i = 0; i < settings.slots(); i++) {
      Slot slot = new Slot(i);
      slots.add(slot);
      Thread t = new Thread(slot::run, "expresso-tasks-" + settings.workerId() + "-" + i);
      threads.add(t);
      t.start();
    }
    Thread joiner = new Thread(() -> {
      for (Thread t : threads) {
        try {
          t.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      producer.close(Duration.ofSeconds(10));
      stopped.complete(null);
    }, "expresso-tasks-" + settings.workerId() + "-stopped");
    joiner.setDaemon(true);
    joiner.start();
  }

  /**
   * Stops: no slot acquires again, tasks not started are released, running ones get {@code grace}
   * to finish (renewing their locks, their results acknowledged as they end), then are cancelled
   * and released. Completes when every slot has closed its consumer.
   */
  CompletableFuture<Void> stop(Duration grace) {
    if (stopGrace.compareAndSet(null, grace)) {
      stopDeadline = System.nanoTime() + grace.toNanos();
    }
    return stopped;
  }

  /**
   * Waits until every slot's consumer has had its first assignment from the group (a new member
   * gets one at a heartbeat's answer, not at once): tasks published after that start without
   * waiting for the join.
   *
   * @return whether every slot joined within {@code timeout}
   */
  boolean awaitJoined(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!slots.stream().allMatch(s -> s.joined)) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  private boolean stopping() {
    return stopGrace.get() != null;
  }

  /** One device slot: a share consumer and the tasks it holds (acquired, not yet acknowledged for good). */
  private final class Slot {
    private final int index;
    private final Map<Key, Held> held = new LinkedHashMap<>();
    /** The consumer the slot acquires with. */
    private ShareMember current;
    /** A consumer with a larger count, joining the group while {@link #current} still serves (see {@link #grow}). */
    private ShareMember joining;
    /** Consumers the slot no longer acquires with, kept until what they fetched has run (see {@link ShareMember}). */
    private final List<ShareMember> retiring = new ArrayList<>();
    /** Since when this slot's polls found no task (nanoTime), or -1 after one that found some. */
    private long emptySince = -1;
    /** The group's acquisition lock, as the broker last said. */
    private Duration lock = DEFAULT_LOCK;
    private long lastRenew;
    private boolean cancelled;
    private boolean fullSaid;
    /** Whether the slot's consumer has partitions: it has fetched (see {@link #assigned}). */
    private volatile boolean joined;
    /** Released when a held task ends or the broker answers a send of its records: the slot has something to settle. */
    private final Semaphore wake = new Semaphore(0);

    Slot(int index) {
      this.index = index;
    }

    void run() {
      while (true) {
        try {
          serve();
          return;
        } catch (Exception e) {
          if (stopping()) {
            LOG.warn("worker {} slot {}: {} while stopping; its tasks go back at their lock's end", settings.workerId(),
                index, e.toString());
            abandon();
            return;
          }
          observer.onRestart();
          abandon();
          if (groupFull(e)) {
            // a member leaving frees a place: ask again now and then, and say why once
            (fullSaid ? LOG.atDebug() : LOG.atError()).log("worker {} slot {}: {}", settings.workerId(), index, GROUP_FULL);
            fullSaid = true;
            sleep(GROUP_FULL_RETRY.toMillis());
            continue;
          }
          LOG.warn("worker {} slot {}: share consumer failed ({}); its tasks are given up and it starts again in 2 s",
              settings.workerId(), index, e.toString());
          sleep(2000);
        }
      }
    }

    /** Serves until stopped and every held task is acknowledged; a client failure ends it by an exception. */
    private void serve() {
      open(settings.acquire().next(settings.acquire().initial(), lock, recent()));
      try {
        lastRenew = System.nanoTime();
        cancelled = false;
        while (!(stopping() && held.isEmpty())) {
          if (stopping()) {
            handBack();
          }
          settle();
          tendRetiring();
          if (held.isEmpty()) {
            if (!stopping()) {
              ConsumerRecords<String, byte[]> records = pollIdle(); // the only place a slot asks for new tasks
              take(records, current);
            }
          } else if (System.nanoTime() - lastRenew >= renewEvery().toNanos()) {
            renew();
          } else if (held.values().stream().anyMatch(h -> h.lease == Lease.RENEWING)) {
            pollRenewed();
            awaitAnyEnd(Duration.ofMillis(50));
          } else {
            awaitAnyEnd(Duration.ofMillis(100));
          }
          markLost();
        }
      } finally {
        close();
      }
    }

    private void open(int acquire) {
      current = new ShareMember(newConsumer(acquire), acquire);
    }

    private KafkaShareConsumer<String, byte[]> newConsumer(int acquire) {
      KafkaShareConsumer<String, byte[]> c = new KafkaShareConsumer<>(ShareGroup.consumerConfig(settings.kafka(),
          settings.group(), settings.workerId() + "-" + index, acquire), new StringDeserializer(), new ByteArrayDeserializer());
      c.setAcknowledgementCommitCallback((offsets, e) -> {
        if (e != null) {
          offsets.forEach((tp, acked) -> LOG.warn("worker {} slot {}: committing the acknowledgements of {} task(s) of {}"
              + " failed ({}); the broker redelivers them when their locks expire (their results are produced: a second"
              + " result of a task counts once)", settings.workerId(), index, acked.size(), tp, e.toString()));
        }
      });
      c.subscribe(List.of(Topics.TASKS));
      return c;
    }

    /** The recent task duration and how many tasks it rests on (forgotten when the queue drained). */
    private CostModel.Recent recent() {
      return settings.costs().recent();
    }

    /**
     * An idle slot's poll, with the count the recent tasks call for. A smaller count takes a new
     * consumer at once (long tasks must not wait in a batch); a larger one joins the group beside
     * the current consumer, which serves until the new one returns tasks (a join takes up to a
     * heartbeat, 5 s on a stock broker). A slot that finds no task for {@link #DRAINED_AFTER} forgets
     * the durations it measured and takes one task again.
     */
    private ConsumerRecords<String, byte[]> pollIdle() {
      int want = settings.acquire().next(current.count(), lock, recent());
      if (joining != null && want <= current.count()) {
        retire(joining); // no larger count after all (a joining one keeps its count: a new one would join anew)
        joining = null;
      }
      if (want < current.count()) {
        LOG.debug("worker {} slot {}: acquiring {} task(s) a poll instead of {} (recent tasks on a device: {})",
            settings.workerId(), index, want, current.count(), recent());
        retire(current);
        open(want);
      } else if (want > current.count()) {
        ConsumerRecords<String, byte[]> grown = grow(want);
        if (grown != null) {
          return grown;
        }
      }
      long start = System.nanoTime();
      ConsumerRecords<String, byte[]> records = current.poll(joining == null ? IDLE_POLL : JOINING_POLL);
      if (!joined) {
        joined = !records.isEmpty() || assigned(current.consumer());
      }
      if (!records.isEmpty()) {
        emptySince = -1;
      } else if (emptySince < 0) {
        emptySince = start;
      } else if (System.nanoTime() - emptySince >= DRAINED_AFTER.toNanos()) {
        settings.costs().forget(); // a new burst may be anything
      }
      return records;
    }

    /**
     * Polls the consumer joining with {@code want} tasks a poll (creating it first): once it returns
     * tasks it replaces the current consumer, which holds none (the slot is idle) and retires. Null while it
     * has none yet. If it cannot join (a full group: it is one member more for a while), the slot
     * changes consumers the slow way, leaving and joining.
     */
    private ConsumerRecords<String, byte[]> grow(int want) {
      try {
        if (joining == null) {
          LOG.debug("worker {} slot {}: joining with {} task(s) a poll instead of {} (recent tasks on a device: {})",
              settings.workerId(), index, want, current.count(), recent());
          joining = new ShareMember(newConsumer(want), want);
        }
        ConsumerRecords<String, byte[]> records = joining.poll(Duration.ZERO);
        if (records.isEmpty()) {
          return null;
        }
        retire(current);
        current = joining;
        joining = null;
        emptySince = -1;
        return records;
      } catch (RuntimeException e) {
        LOG.debug("worker {} slot {}: a second consumer could not join ({}); changing consumers", settings.workerId(),
            index, e.toString());
        if (joining != null) {
          joining.close();
          joining = null;
        }
        retire(current);
        open(want);
        return null;
      }
    }

    /**
     * Whether {@code c} has partitions to fetch from: it has sent a share fetch (Kafka's
     * {@code fetch-total}). The share consumer says nothing else: a new member's first assignment
     * (its {@code rebalance-total}) can be empty, its partitions following a heartbeat later.
     */
    private static boolean assigned(KafkaShareConsumer<String, byte[]> c) {
      return c.metrics().entrySet().stream().anyMatch(e -> e.getKey().name().equals("fetch-total")
          && e.getKey().group().equals("consumer-share-fetch-manager-metrics")
          && e.getValue().metricValue() instanceof Double d && d >= 1);
    }

    /**
     * Takes a consumer the slot no longer acquires with out of use without handing back what its
     * fetch took: it is polled once more, and closed at once if that returned nothing, else once
     * what it returned has run and been acknowledged on it (see {@link ShareMember}).
     */
    private void retire(ShareMember m) {
      if (!stopping()) {
        take(m.poll(Duration.ZERO), m);
      }
      if (holds(m)) {
        retiring.add(m);
      } else {
        m.close();
      }
    }

    /** Closes each retired consumer whose tasks have all been acknowledged. */
    private void tendRetiring() {
      for (Iterator<ShareMember> it = retiring.iterator(); it.hasNext();) {
        ShareMember m = it.next();
        if (!holds(m)) {
          m.close();
          it.remove();
        }
      }
    }

    private boolean holds(ShareMember m) {
      return held.values().stream().anyMatch(h -> h.from == m);
    }

    /** Polls each consumer with a renewal under way: renewed records come back without a fetch. */
    private void pollRenewed() {
      Set<ShareMember> renewingOn = new LinkedHashSet<>();
      held.values().stream().filter(h -> h.lease == Lease.RENEWING).forEach(h -> renewingOn.add(h.from));
      for (ShareMember m : renewingOn) {
        take(m.poll(Duration.ZERO), m);
      }
    }

    /**
     * Records a poll of {@code from} returned: a renewed record is ours again; a new one is a task
     * for the devices. Each is acknowledged on the consumer that returned it.
     */
    private void take(ConsumerRecords<String, byte[]> records, ShareMember from) {
      if (records.isEmpty()) {
        return;
      }
      List<Job> jobs = new ArrayList<>();
      for (ConsumerRecord<String, byte[]> r : records) {
        Key key = key(r);
        Held h = held.get(key);
        if (h != null) {
          h.record = r;
          h.from = from;
          h.lease = Lease.DELIVERED; // a renewed record back, or one given up for lost that was ours after all
        } else {
          Job j = new Job(r);
          held.put(key, new Held(r, j, from));
          j.outcome().whenComplete((o, e) -> wake.release());
          jobs.add(j);
        }
      }
      if (!jobs.isEmpty()) {
        if (stopping()) {
          jobs.forEach(Job::drop); // a poll under way when the stop came: hand them straight back
        } else {
          pool.tell(new DevicePool.Submit(jobs));
        }
      }
    }

    /**
     * Produces the records of every held task that ended, and acknowledges every held task whose
     * records the broker has acked (or failed to take): an acknowledged task always has its result.
     * Neither waits: a send's answer comes back while the slot goes on (it wakes the slot), so the
     * next tasks' results are produced while the broker answers the last ones, and acknowledgements
     * are committed in the background (a failure is logged by the commit callback).
     */
    private void settle() {
      int failed = 0;
      Exception failure = null;
      for (Iterator<Held> it = held.values().iterator(); it.hasNext();) {
        Held h = it.next();
        if (h.sends == null) {
          if (!h.job.outcome().isDone()) {
            continue;
          }
          produce(h); // a task handed back has nothing to produce: it is released at once
        }
        if (h.lease == Lease.RENEWING || !h.produced()) {
          continue; // acknowledged once the renewed record is back, or once the broker has answered
        }
        it.remove();
        if (h.lease == Lease.LOST) {
          continue; // not ours to acknowledge any more
        }
        Exception sendFailure = h.sendFailure();
        boolean produced = sendFailure == null;
        if (!produced) {
          failed++;
          failure = sendFailure;
        }
        h.from.acknowledge(h.record, acknowledgement(h.job.outcome().join(), produced));
      }
      if (failed > 0) {
        LOG.warn("worker {} slot {}: producing results failed ({}); {} task(s) released to run again",
            settings.workerId(), index, failure.toString(), failed);
      }
      commitDue();
    }

    /**
     * Commits what each consumer has acknowledged, in the background, at most every {@link
     * #ACK_COMMIT_EVERY}; the rest is committed before the consumer's next poll (the slot polls once it
     * holds nothing) or by its close.
     */
    private void commitDue() {
      current.commitIfDue(ACK_COMMIT_EVERY);
      retiring.forEach(m -> m.commitIfDue(ACK_COMMIT_EVERY));
    }

    /** Sends the records of a task that ended; each answer wakes the slot. */
    private void produce(Held h) {
      List<ProducerRecord<String, byte[]>> records = h.job.outcome().join().records();
      List<Future<RecordMetadata>> sends = new ArrayList<>(records.size());
      for (ProducerRecord<String, byte[]> r : records) {
        sends.add(producer.send(r, (metadata, e) -> wake.release()));
      }
      h.sends = sends;
    }

    /**
     * Extends the locks of every held task the last poll returned, and waits for the broker's
     * answer: RENEW acknowledgements committed by {@code commitSync}, which sends no fetch (a poll
     * would, and acquire tasks this slot cannot run yet). A renewed record comes back from the next
     * poll; one whose renewal failed is lost (another worker gets it).
     */
    private void renew() {
      long now = System.nanoTime();
      lastRenew = now;
      List<Held> renewing = new ArrayList<>();
      Set<ShareMember> renewedOn = new LinkedHashSet<>();
      for (Held h : held.values()) {
        if (h.lease == Lease.DELIVERED) {
          h.from.consumer().acknowledge(h.record, AcknowledgeType.RENEW);
          renewedOn.add(h.from);
          h.lease = Lease.RENEWING;
          h.renewedAt = now;
          renewing.add(h);
        }
      }
      if (renewing.isEmpty()) {
        return;
      }
      for (ShareMember m : renewedOn) {
        m.consumer().commitSync(Duration.ofSeconds(30)).forEach((tp, failure) -> failure.ifPresent(e -> {
          for (Held h : renewing) {
            if (h.from == m && h.record.topic().equals(tp.topic()) && h.record.partition() == tp.partition()) {
              h.lease = Lease.LOST;
              LOG.warn("worker {} slot {}: renewing the lock of {} failed ({}); the broker redelivers it, and a result"
                  + " from here still counts once", settings.workerId(), index, key(h.record), e.toString());
            }
          }
        }));
        m.sent(); // the commit carried the acknowledgements given before it too
      }
      pollRenewed();
    }

    /**
     * A renewed task that has not come back within a lock's time was lost (the worker was paused past
     * its lock or session): the broker redelivers it elsewhere. It may still finish here; its late
     * result is produced (readers count a task once) but nothing is acknowledged for it.
     */
    private void markLost() {
      long lockNanos = renewEvery().toNanos() * RENEWALS_PER_LOCK;
      long now = System.nanoTime();
      for (Held h : held.values()) {
        if (h.lease == Lease.RENEWING && now - h.renewedAt > lockNanos) {
          h.lease = Lease.LOST;
          LOG.warn("worker {} slot {}: lost the lock of {} (paused past it?); the broker redelivers it, and a result"
              + " from here still counts once", settings.workerId(), index, key(h.record));
        }
      }
    }

    private Duration renewEvery() {
      current.consumer().acquisitionLockTimeoutMs().ifPresent(ms -> lock = Duration.ofMillis(ms));
      return Duration.ofMillis(Math.max(200, lock.toMillis() / RENEWALS_PER_LOCK));
    }

    /** Waits until a held task ends or a send of its records is answered, at most {@code max}. */
    private void awaitAnyEnd(Duration max) {
      try {
        if (wake.tryAcquire(max.toMillis(), TimeUnit.MILLISECONDS)) {
          wake.drainPermits(); // one look at the held tasks serves every event so far
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** Stopping: tasks not started go back now; running ones after the stop grace (cancelled first). */
    private void handBack() {
      int dropped = 0;
      for (Held h : held.values()) {
        dropped += h.job.drop() ? 1 : 0;
      }
      if (dropped > 0) {
        observer.onHandedBack(dropped);
      }
      long now = System.nanoTime();
      if (!cancelled && now >= stopDeadline) {
        cancelled = true;
        held.values().stream().filter(h -> h.job.running()).forEach(h -> h.job.cancellation().cancel(Cancellation.Reason.STOPPING));
        if (held.values().stream().anyMatch(h -> h.job.running())) {
          LOG.warn("worker {} slot {}: stop grace of {} s is over; cancelling its running task(s)", settings.workerId(),
              index, stopGrace.get().toSeconds());
        }
      }
      if (cancelled && now >= stopDeadline + CANCEL_GRACE.toNanos()
          && held.values().stream().anyMatch(h -> h.job.running())) {
        LOG.warn("worker {} slot {}: cancelled task(s) still running after {} s; the broker redelivers them",
            settings.workerId(), index, CANCEL_GRACE.toSeconds());
        abandon();
      }
    }

    /** Gives up every held task without acknowledging: running ones are cancelled, their results ignored. */
    private void abandon() {
      for (Held h : held.values()) {
        if (!h.job.drop() && h.job.running()) {
          h.job.cancellation().cancel(Cancellation.Reason.STOPPING);
        }
      }
      held.clear();
    }

    /** Closing the consumers releases whatever they still hold and leaves the group at once. */
    private void close() {
      if (joining != null) {
        joining.close();
        joining = null;
      }
      retiring.forEach(ShareMember::close);
      retiring.clear();
      if (current != null) {
        current.close();
        current = null;
      }
    }
  }

  /** Where a held task's acquisition lock stands. */
  enum Lease {
    /** Returned by the consumer's last poll: it must be acknowledged (for good or RENEW) before the next. */
    DELIVERED,
    /** RENEW sent; a later poll returns the record again, within a lock's time. */
    RENEWING,
    /** Its lock ran out or its renewal failed: another worker may have it; nothing is acknowledged for it. */
    LOST
  }

  /** A task a slot holds: its latest record (a renewal returns a new one), the consumer that returned it, and its lease. */
  private static final class Held {
    ConsumerRecord<String, byte[]> record;
    ShareMember from;
    final Job job;
    Lease lease = Lease.DELIVERED;
    /** When the last RENEW was sent (nanoTime). */
    long renewedAt;
    /** The sends of its records once it ended (a result, and a dead letter for an error), else null. */
    List<Future<RecordMetadata>> sends;

    /** Whether the broker has answered every send of its records. */
    boolean produced() {
      for (Future<RecordMetadata> f : sends) {
        if (!f.isDone()) {
          return false;
        }
      }
      return true;
    }

    /** The first failed send of its records, or null when all went through (call once {@link #produced}). */
    Exception sendFailure() {
      for (Future<RecordMetadata> f : sends) {
        try {
          f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          return e.getCause() instanceof Exception c ? c : e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return e;
        }
      }
      return null;
    }

    Held(ConsumerRecord<String, byte[]> record, Job job, ShareMember from) {
      this.record = record;
      this.job = job;
      this.from = from;
    }
  }

  /**
   * How a task that ended is acknowledged, once its records were produced or failed to be:
   * ACCEPT for a result, REJECT for an error result (its dead letter is written), RELEASE when
   * there is no result here (handed back unfinished, or producing failed): the task runs again.
   */
  static AcknowledgeType acknowledgement(Outcome outcome, boolean produced) {
    if (!produced || outcome.handedBack()) {
      return AcknowledgeType.RELEASE;
    }
    return outcome.failed() ? AcknowledgeType.REJECT : AcknowledgeType.ACCEPT;
  }

  /**
   * Why a slot cannot join a full share group: each slot is one member, and the brokers cap a
   * group's members ({@code group.share.max.size}, 200 by default, at most 1000).
   */
  static final String GROUP_FULL = "the share group is full: every device slot of every worker is one member, and the"
      + " brokers' group.share.max.size (200 by default, at most 1000) caps them; this slot takes no task until a member"
      + " leaves (it asks again every 30 s). Raise group.share.max.size in every broker's config, or run fewer slots";

  /** How often a slot of a full group asks again. */
  static final Duration GROUP_FULL_RETRY = Duration.ofSeconds(30);

  /** Whether {@code e} (or what caused it) is the broker's answer that the share group is full. */
  static boolean groupFull(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof GroupMaxSizeReachedException) {
        return true;
      }
    }
    return false;
  }

  /** Where a held task's record sits: what a renewed record is matched by (no string built per task). */
  private record Key(String topic, int partition, long offset) {
    @Override
    public String toString() {
      return topic + "/" + partition + "@" + offset;
    }
  }

  private static Key key(ConsumerRecord<String, byte[]> r) {
    return new Key(r.topic(), r.partition(), r.offset());
  }

  private Properties producerConfig() {
    Properties p = settings.kafka().producer();
    // at least once, in order, no duplicates from the producer's own retries
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.CLIENT_ID_CONFIG, settings.workerId() + "-results");
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
