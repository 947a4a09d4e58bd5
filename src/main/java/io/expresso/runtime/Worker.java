package io.expresso.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.SpawnProtocol;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.kafka.ConsumerMessage;
import org.apache.pekko.kafka.ConsumerSettings;
import org.apache.pekko.kafka.ProducerMessage;
import org.apache.pekko.kafka.ProducerSettings;
import org.apache.pekko.kafka.Subscriptions;
import org.apache.pekko.kafka.javadsl.Consumer;
import org.apache.pekko.kafka.javadsl.Transactional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker process: a Pekko typed ActorSystem with a {@link DevicePool}, fed by a Pekko Connectors
 * Kafka transactional source in consumer group {@value #GROUP}. Each task's result (and dead
 * letter) is produced in the same Kafka transaction that commits the task's offset, so a crash
 * either loses the whole transaction (the tasks are redelivered) or commits both: exactly-once.
 * The source pulls only as devices free up (back-pressure through {@code mapAsync}); transactions
 * are committed per interval, not per task, for throughput.
 *
 * <p>Stopping ({@link #close}, SIGTERM via CoordinatedShutdown): stop pulling, finish the tasks in
 * flight, commit, leave the group. If the stream fails (e.g. the broker went away), it is started
 * again after a back-off.
 */
public final class Worker implements AutoCloseable {

  public static final String GROUP = "expresso-workers";

  /** The longest a stop waits for in-flight tasks and their commit. */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);

  /** Target device time per batch per device, in microseconds. */
  static final long BATCH_MICROS = 20_000;

  /** Records one poll of the task topics returns at most. */
  static final int MAX_POLL_RECORDS = 2000;

  /** Result envelopes the transactional sink keeps in flight (see {@link #run}). */
  static final int PRODUCER_PARALLELISM = 10_000;

  /** Producer batch size per partition, in bytes. */
  static final int PRODUCER_BATCH_BYTES = 256 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  private final Settings settings;
  private final EvaluatorRegistry registry;
  private final ActorSystem<SpawnProtocol.Command> system;
  private final ActorRef<DevicePool.Command> pool;
  private final CostModel costs = new CostModel();
  private final AtomicReference<Consumer.DrainingControl<Done>> control = new AtomicReference<>();
  private final CompletableFuture<Done> stopped = new CompletableFuture<>();
  private volatile boolean stopping;

  /**
   * Worker settings.
   *
   * @param bootstrap Kafka bootstrap servers
   * @param devices the devices this worker owns, one DeviceWorker each
   * @param workerId a unique id (also the transactional id's suffix)
   * @param commitInterval how often the transaction (results + offsets) is committed
   * @param maxBatch the most tasks handed to the device pool in one message
   * @param batchesInFlight batches the source pulls ahead (with maxBatch, bounds the tasks held)
   * @param taskTimeout the longest one batch may take before the stream fails and restarts
   */
  public record Settings(String bootstrap, List<Device> devices, String workerId, Duration commitInterval,
      int maxBatch, int batchesInFlight, Duration taskTimeout) {

    public static Settings of(String bootstrap, List<Device> devices) {
      return new Settings(bootstrap, devices, "worker-" + UUID.randomUUID().toString().substring(0, 8),
          Duration.ofMillis(100), 512, Math.max(4, 2 * devices.size()), Duration.ofHours(2));
    }

    public Settings withWorkerId(String id) {
      return new Settings(bootstrap, devices, id, commitInterval, maxBatch, batchesInFlight, taskTimeout);
    }

    public Settings withCommitInterval(Duration d) {
      return new Settings(bootstrap, devices, workerId, d, maxBatch, batchesInFlight, taskTimeout);
    }

    public Settings withBatching(int maxBatch, int batchesInFlight) {
      return new Settings(bootstrap, devices, workerId, commitInterval, maxBatch, batchesInFlight, taskTimeout);
    }
  }

  private Worker(Settings settings, EvaluatorRegistry registry, TaskObserver observer) {
    this.settings = settings;
    this.registry = registry;
    if (settings.devices().isEmpty()) {
      throw new IllegalArgumentException("a worker needs at least one device");
    }
    if (new HashSet<>(settings.devices()).size() != settings.devices().size()) {
      throw new IllegalArgumentException("devices given twice: " + settings.devices());
    }
    this.system = ActorSystem.create(Behaviors.setup(ctx -> SpawnProtocol.create()), "expresso-worker",
        config(settings.devices()));
    TaskProcessor processor = new TaskProcessor(registry, settings.workerId(), new TaskObserver() {
      @Override
      public void onStarted(Device device, TaskKind kind) {
        observer.onStarted(device, kind);
      }

      @Override
      public void onFinished(Device device, TaskKind kind, io.expresso.proto.v1.Result result, double seconds) {
        costs.onFinished(device, kind, result, seconds);
        observer.onFinished(device, kind, result, seconds);
      }
    });
    try {
      this.pool = AskPattern.<SpawnProtocol.Command, ActorRef<DevicePool.Command>>ask(system,
          reply -> new SpawnProtocol.Spawn<>(DevicePool.create(settings.devices(), processor), "device-pool",
              org.apache.pekko.actor.typed.Props.empty(), reply),
          Duration.ofSeconds(10), system.scheduler()).toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      system.terminate();
      throw new IllegalStateException("cannot start the device pool: " + e.getMessage(), e);
    }
    CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseServiceUnbind(), "drain-kafka-source",
        this::drain);
  }

  /** Starts a worker; it serves until {@link #close} or SIGTERM. */
  public static Worker start(Settings settings, EvaluatorRegistry registry, TaskObserver observer) {
    // Evaluators that read or write expresso.models (train/attack) find the cluster here.
    System.setProperty("expresso.bootstrap", settings.bootstrap());
    Worker w = new Worker(settings, registry, observer);
    w.run();
    return w;
  }

  public String id() {
    return settings.workerId();
  }

  /** Completes when the worker has stopped (after a drain or a fatal error). */
  public CompletionStage<Done> whenStopped() {
    return stopped;
  }

  private void run() {
    if (stopping) {
      return;
    }
    ConsumerSettings<String, byte[]> cs = ConsumerSettings.create(system, new StringDeserializer(), new ByteArrayDeserializer())
        .withBootstrapServers(settings.bootstrap())
        .withGroupId(GROUP)
        .withClientId(settings.workerId())
        .withStopTimeout(Duration.ZERO)
        .withProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest")
        .withProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000")
        .withProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000")
        .withProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(MAX_POLL_RECORDS));
    ProducerSettings<String, byte[]> ps = ProducerSettings.create(system, new StringSerializer(), new ByteArraySerializer())
        .withBootstrapServers(settings.bootstrap())
        .withEosCommitInterval(settings.commitInterval())
        // envelopes awaiting their ack; the default (100) throttled the sink to a trickle between
        // commits. The stream in front (mapAsync, the source's buffer) still bounds what is held,
        // and a commit still waits for every in-flight record, so exactly-once is unaffected.
        .withParallelism(PRODUCER_PARALLELISM)
        .withProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "10000")
        .withProperty(ProducerConfig.LINGER_MS_CONFIG, "2")
        // a transactional producer has one request in flight per connection: make each one count
        .withProperty(ProducerConfig.BATCH_SIZE_CONFIG, String.valueOf(PRODUCER_BATCH_BYTES))
        .withProperty(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    // a batch of what is already polled, worth about BATCH_MICROS of device time per device by the
    // running cost estimate (so cheap tasks travel hundreds to a message, costly ones alone)
    long maxWeight = BATCH_MICROS * settings.devices().size();
    Consumer.DrainingControl<Done> c = Transactional.source(cs, Subscriptions.topics(new HashSet<>(TaskKind.topics())))
        .groupedWeightedWithin(maxWeight, settings.maxBatch(),
            m -> Math.min(maxWeight, costs.estimate(TaskKind.ofTopic(m.record().topic()))), Duration.ofMillis(1))
        .mapAsync(settings.batchesInFlight(), this::submit)
        .mapConcat(list -> list)
        .toMat(Transactional.sink(ps, "expresso-" + settings.workerId()), Consumer::createDrainingControl)
        .run(system);
    control.set(c);
    c.streamCompletion().whenComplete((done, error) -> {
      if (stopping) {
        return;
      }
      if (error != null) {
        LOG.warn("worker {}: task stream failed ({}); restarting in 2 s", settings.workerId(), error.toString());
      } else {
        LOG.warn("worker {}: task stream ended; restarting in 2 s", settings.workerId());
      }
      system.scheduler().scheduleOnce(Duration.ofSeconds(2), this::run, system.executionContext());
    });
  }

  /**
   * Hands a batch to the device pool; completes with one producer envelope per source partition:
   * every record the batch's tasks of that partition produced, carrying the partition's highest
   * offset in the batch. The whole batch completes together and batches leave in order, so
   * committing that offset never skips a task whose results are not in the same transaction.
   */
  private CompletionStage<List<ProducerMessage.Envelope<String, byte[], ConsumerMessage.PartitionOffset>>> submit(
      List<ConsumerMessage.TransactionalMessage<String, byte[]>> messages) {
    List<Job> jobs = new ArrayList<>(messages.size());
    for (ConsumerMessage.TransactionalMessage<String, byte[]> m : messages) {
      jobs.add(new Job(m.record()));
    }
    pool.tell(new DevicePool.Submit(jobs));
    CompletableFuture<?>[] all = jobs.stream().map(Job::outcome).toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(all).orTimeout(settings.taskTimeout().toMillis(), TimeUnit.MILLISECONDS)
        .thenApply(v -> envelopes(messages, jobs));
  }

  static List<ProducerMessage.Envelope<String, byte[], ConsumerMessage.PartitionOffset>> envelopes(
      List<ConsumerMessage.TransactionalMessage<String, byte[]>> messages, List<Job> jobs) {
    Map<ConsumerMessage.GroupTopicPartition, List<ProducerRecord<String, byte[]>>> records = new LinkedHashMap<>();
    Map<ConsumerMessage.GroupTopicPartition, ConsumerMessage.PartitionOffset> last = new LinkedHashMap<>();
    for (int i = 0; i < messages.size(); i++) {
      ConsumerMessage.PartitionOffset po = messages.get(i).partitionOffset();
      records.computeIfAbsent(po.key(), k -> new ArrayList<>()).addAll(jobs.get(i).outcome().join().records());
      last.merge(po.key(), po, (a, b) -> a.offset() >= b.offset() ? a : b);
    }
    List<ProducerMessage.Envelope<String, byte[], ConsumerMessage.PartitionOffset>> out = new ArrayList<>(last.size());
    last.forEach((k, po) -> out.add(ProducerMessage.multi(records.get(k), po)));
    return out;
  }

  /** Stop pulling, finish in-flight tasks, commit their transaction, leave the group. */
  private CompletionStage<Done> drain() {
    stopping = true;
    Consumer.DrainingControl<Done> c = control.get();
    CompletionStage<Done> drained = c == null ? CompletableFuture.completedFuture(Done.getInstance())
        : c.drainAndShutdown(system.executionContext()).toCompletableFuture()
            // a drain needs the broker: if it is gone, give up on committing and just stop
            .orTimeout(DRAIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
            .exceptionallyCompose(e -> {
              LOG.warn("worker {}: could not drain ({}); stopping without a final commit", settings.workerId(), e.toString());
              return c.shutdown().exceptionally(x -> Done.getInstance());
            });
    return drained.thenApply(d -> {
      stopped.complete(Done.getInstance());
      return d;
    });
  }

  /** Drains (see {@link #drain}), terminates the actor system, then closes the evaluators' resources; blocks until done. */
  @Override
  public void close() {
    try {
      CoordinatedShutdown.get(system).runAll(CoordinatedShutdown.unknownReason()).toCompletableFuture().get(90, TimeUnit.SECONDS);
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.warn("worker {}: unclean stop: {}", settings.workerId(), e.toString());
    }
    registry.close(); // the evaluators' own clients (e.g. the checkpoint store's producer)
    stopped.complete(Done.getInstance());
  }

  /** Blocks until the actor system has terminated (after SIGTERM or {@link #close}). */
  public void awaitTermination() throws Exception {
    system.getWhenTerminated().toCompletableFuture().get();
  }

  private static Config config(List<Device> devices) {
    String own = """
        pekko {
          loglevel = WARNING
          stdout-loglevel = OFF
          loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
          logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
          log-dead-letters = off
          log-dead-letters-during-shutdown = off
          coordinated-shutdown.phases.service-unbind.timeout = 75s
          kafka.consumer.stop-timeout = 0s
          # how long a revocation waits for in-flight tasks to commit; a closing consumer also
          # waits this long for its already stopped source, so keep it short (a task still in
          # flight when it ends is fenced by the group generation and redone elsewhere)
          kafka.consumer.commit-timeout = 5s
        }
        """ + DeviceWorker.dispatcherConfig(devices);
    return ConfigFactory.parseString(own).withFallback(ConfigFactory.load());
  }
}
