package io.expresso.runtime.actors;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.expresso.runtime.Cancellation;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskLimits;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.TaskProcessor;
import io.expresso.runtime.TaskTimeouts;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.ClusterCheck;
import io.expresso.runtime.kafka.ShareGroup;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.SpawnProtocol;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker process: a Pekko typed ActorSystem with a {@link DevicePool} (one actor per device),
 * fed by a {@link TaskLoop} in the share group {@value #GROUP}: one share consumer per device,
 * each acquiring a task only while its device slot is free.
 *
 * <p>What a user can rely on: at-least-once delivery (a result is produced before its task is
 * acknowledged; a task whose worker died is redelivered when its lock expires or the worker's
 * session ends); a task the broker delivered {@link Settings#maxDeliveries} times without a result
 * ends as an error result and a dead letter ({@code poison: N deliveries}); each task runs under
 * its kind's time limit; a stop (SIGTERM, {@link #close}) lets running tasks finish for {@link
 * Settings#stopGrace}, then cancels and releases the rest.
 */
public final class Worker implements AutoCloseable {

  public static final String GROUP = ShareGroup.NAME;

  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  private final Settings settings;
  private final EvaluatorRegistry registry;
  private final ActorSystem<SpawnProtocol.Command> system;
  private final TaskLoop loop;
  /** Error results for the tasks the broker gave up on by itself (see {@link ArchivedTasks}). */
  private final ArchivedTasks archived;
  private final CompletableFuture<Done> stopped = new CompletableFuture<>();
  private final java.util.concurrent.atomic.AtomicLong finished = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong cancelled = new java.util.concurrent.atomic.AtomicLong();

  /**
   * Worker settings.
   *
   * @param kafka how to reach the Kafka cluster (bootstrap servers and client settings)
   * @param devices the devices this worker owns, one DeviceWorker and one share consumer each
   * @param workerId a name for logs, client ids and results' provenance
   * @param acquire tasks one device slot acquires per poll, or {@link #ADAPTIVE} (the default): as many as the
   *     recent task durations call for ({@link AcquireSize}): tiny tasks many to a round trip, long ones one by one
   * @param stopGrace how long a stop lets running tasks finish before it cancels them
   * @param timeouts the longest a task of each kind may run on a device
   * @param maxDeliveries deliveries without a result after which a task is dead-lettered as poison
   * @param allowFaults honour synthetic tasks' fault injection (chaos testing only)
   * @param limits the work one task may ask for (graph sizes, epochs, model size), checked before it runs
   */
  public record Settings(KafkaClients kafka, List<DeviceSlot> devices, String workerId, int acquire, Duration stopGrace,
      TaskTimeouts timeouts, int maxDeliveries, boolean allowFaults, TaskLimits limits) {

    /** Default stop grace: deploy/'s terminationGracePeriodSeconds (600) less a margin to hand the rest back. */
    public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(540);
    public static final int DEFAULT_MAX_DELIVERIES = ShareGroup.DEFAULT_MAX_DELIVERIES;

    public Settings {
      ShareGroup.Settings.forWorker(maxDeliveries); // checks the bounds
      new AcquireSize(acquire); // checks the bounds
    }

    /** {@code acquire}: as many tasks a poll as the recent task durations call for. */
    public static final int ADAPTIVE = 0;

    /** Defaults on the plaintext cluster at {@code bootstrap} (the embedded broker, tests). */
    public static Settings of(String bootstrap, List<DeviceSlot> devices) {
      return of(KafkaClients.of(bootstrap), devices);
    }

    public static Settings of(KafkaClients kafka, List<DeviceSlot> devices) {
      return new Settings(kafka, devices, "worker-" + UUID.randomUUID().toString().substring(0, 8), ADAPTIVE,
          DEFAULT_STOP_GRACE, TaskTimeouts.DEFAULTS, DEFAULT_MAX_DELIVERIES, false, TaskLimits.DEFAULTS);
    }

    public Settings withWorkerId(String id) {
      return new Settings(kafka, devices, id, acquire, stopGrace, timeouts, maxDeliveries, allowFaults, limits);
    }

    public Settings withAcquire(int n) {
      return new Settings(kafka, devices, workerId, n, stopGrace, timeouts, maxDeliveries, allowFaults, limits);
    }

    public Settings withStopGrace(Duration d) {
      return new Settings(kafka, devices, workerId, acquire, d, timeouts, maxDeliveries, allowFaults, limits);
    }

    public Settings withTimeouts(TaskTimeouts t) {
      return new Settings(kafka, devices, workerId, acquire, stopGrace, t, maxDeliveries, allowFaults, limits);
    }

    public Settings withMaxDeliveries(int n) {
      return new Settings(kafka, devices, workerId, acquire, stopGrace, timeouts, n, allowFaults, limits);
    }

    public Settings withFaults(boolean allow) {
      return new Settings(kafka, devices, workerId, acquire, stopGrace, timeouts, maxDeliveries, allow, limits);
    }

    public Settings withLimits(TaskLimits l) {
      return new Settings(kafka, devices, workerId, acquire, stopGrace, timeouts, maxDeliveries, allowFaults, l);
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
    if (settings.allowFaults()) {
      registry.allowFaults();
    }
    this.system = ActorSystem.create(Behaviors.setup(ctx -> SpawnProtocol.create()), "expresso-worker",
        config(settings));
    CostModel costs = new CostModel();
    TaskObserver both = new TaskObserver() {
      @Override
      public void onStarted(DeviceSlot device, TaskKind kind) {
        observer.onStarted(device, kind);
      }

      @Override
      public void onFinished(DeviceSlot device, TaskKind kind, io.expresso.proto.v1.Result result, double seconds) {
        costs.onFinished(device, kind, result, seconds);
        finished.incrementAndGet();
        observer.onFinished(device, kind, result, seconds);
      }

      @Override
      public void onCancelled(DeviceSlot device, TaskKind kind, Cancellation.Reason reason, double seconds) {
        costs.onCancelled(device, kind, reason, seconds);
        cancelled.incrementAndGet();
        observer.onCancelled(device, kind, reason, seconds);
      }

      @Override
      public void onPoison(DeviceSlot device, TaskKind kind) {
        observer.onPoison(device, kind);
      }

      @Override
      public void onAttempts(TaskKind kind, int tasks) {
        observer.onAttempts(kind, tasks);
      }
    };
    TaskProcessor processor = new TaskProcessor(registry, settings.workerId(), both, settings.timeouts(), settings.limits());
    DeviceWorker.Settings ds = new DeviceWorker.Settings(processor, settings.timeouts(), settings.maxDeliveries(), both);
    ActorRef<DevicePool.Command> pool;
    try {
      pool = AskPattern.<SpawnProtocol.Command, ActorRef<DevicePool.Command>>ask(system,
          reply -> new SpawnProtocol.Spawn<>(DevicePool.create(settings.devices(), ds, costs), "device-pool",
              org.apache.pekko.actor.typed.Props.empty(), reply),
          Duration.ofSeconds(10), system.scheduler()).toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      system.terminate();
      throw new IllegalStateException("cannot start the device pool: " + e.getMessage(), e);
    }
    this.archived = new ArchivedTasks(settings.kafka(), settings.workerId(), processor, settings.devices().get(0));
    this.loop = new TaskLoop(new TaskLoop.Settings(settings.kafka(), settings.workerId(), GROUP,
        settings.devices().size(), new AcquireSize(settings.acquire()), costs), pool, observer);
    CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseServiceUnbind(), "drain-tasks", this::drain);
  }

  /** Starts a worker; it serves until {@link #close} or SIGTERM. */
  public static Worker start(Settings settings, EvaluatorRegistry registry, TaskObserver observer) {
    // Evaluators that read or write expresso.models (train/attack) find the cluster here.
    registry.useKafka(settings.kafka());
    ShareGroup.Settings group = ShareGroup.Settings.forWorker(settings.maxDeliveries());
    try {
      // the broker's delivery limit must exceed this worker's poison limit, or the last delivery is silent
      ShareGroup.configure(settings.kafka(), group);
    } catch (IllegalStateException e) {
      LOG.warn("worker {}: {}; it relies on the group's configs as they are", settings.workerId(), e.getMessage());
    }
    // what the cluster lacks, said now: a worker that cannot be handed tasks otherwise just waits
    for (ClusterCheck.Finding f : ClusterCheck.problems(ClusterCheck.run(settings.kafka(), group))) {
      if (f.blocking()) {
        LOG.error("worker {}: no task can be handed to this worker: {}", settings.workerId(), f.line());
      } else {
        LOG.warn("worker {}: the cluster lacks: {}", settings.workerId(), f.line());
      }
    }
    Worker w = new Worker(settings, registry, observer);
    w.loop.start();
    w.archived.start();
    return w;
  }

  public String id() {
    return settings.workerId();
  }

  /**
   * What this worker's devices did so far: tasks that ran to a result (success or error) and tasks
   * cancelled mid-run to be redone elsewhere.
   */
  public String tally() {
    return finished.get() + " tasks run to a result, " + cancelled.get() + " cancelled and handed back";
  }

  /**
   * Waits until each of the worker's device slots has joined the share group with partitions to fetch from:
   * a task published after that starts at once on an idle slot (a member that is still joining
   * gets its first tasks at a heartbeat's answer: up to 1 s on the embedded broker, 5 s on a stock one).
   *
   * @return whether every slot joined within {@code timeout}
   */
  public boolean awaitJoined(Duration timeout) throws InterruptedException {
    return loop.awaitJoined(timeout);
  }

  /** Completes when the worker has stopped (after a drain or a fatal error). */
  public CompletionStage<Done> whenStopped() {
    return stopped;
  }

  /** Stops the task loop: running tasks get the stop grace, then are cancelled and handed back. */
  private CompletionStage<Done> drain() {
    // the relay of archived tasks stops beside the slots, not after them (its consumer's leave took
    // about 0.4 s more): what it had not relayed yet is read again by another worker or the next start
    CompletableFuture<Void> relay = CompletableFuture.runAsync(archived::close);
    return loop.stop(settings.stopGrace()).thenCombine(relay, (v, w) -> {
      LOG.info("worker {}: stopped ({})", settings.workerId(), tally());
      stopped.complete(Done.getInstance());
      return Done.getInstance();
    });
  }

  /** Drains (see {@link #drain}), terminates the actor system, then closes the evaluators' resources; blocks until done. */
  @Override
  public void close() {
    try {
      CoordinatedShutdown.get(system).runAll(CoordinatedShutdown.unknownReason()).toCompletableFuture()
          .get(shutdownBound(settings).toSeconds() + 30, TimeUnit.SECONDS);
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

  /** The longest a stop may take: the grace, the cancellation grace, and time to acknowledge and leave. */
  static Duration shutdownBound(Settings s) {
    return s.stopGrace().plus(TaskLoop.CANCEL_GRACE).plusSeconds(30);
  }

  private static Config config(Settings s) {
    String own = """
        pekko {
          loglevel = WARNING
          stdout-loglevel = OFF
          loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
          logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
          log-dead-letters = off
          log-dead-letters-during-shutdown = off
          # the stop drains running tasks for the stop grace (SIGTERM runs these phases)
          coordinated-shutdown.phases.service-unbind.timeout = %ds
        }
        """.formatted(shutdownBound(s).toSeconds()) + DeviceWorker.dispatcherConfig(s.devices());
    return ConfigFactory.parseString(own).withFallback(ConfigFactory.load());
  }
}
