package io.expresso.runtime.actors;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.expresso.runtime.Attempts;
import io.expresso.runtime.Cancellation;
import io.expresso.runtime.Device;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskLimits;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.TaskProcessor;
import io.expresso.runtime.TaskTimeouts;
import io.expresso.runtime.kafka.KafkaClients;
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
 * fed by a {@link TaskLoop} in consumer group {@value #GROUP}. Each task's result (and dead
 * letter) is produced in the same Kafka transaction that commits its offset: exactly-once.
 *
 * <p>What a user can rely on: a membership change moves only the partitions that change owner;
 * a revoked partition's running tasks finish within {@link Settings#revokeDrain} or are cancelled
 * and redone by the new owner; every start is recorded as an attempt before it runs, and a task
 * that took down workers {@link Settings#maxAttempts} times ends as an error result and a dead
 * letter ({@code poison: N attempts}); each task runs under its kind's time limit; a stop (SIGTERM,
 * {@link #close}) lets running tasks finish for {@link Settings#stopGrace}, cancels the rest and
 * hands them back.
 */
public final class Worker implements AutoCloseable {

  public static final String GROUP = "expresso-workers";

  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  private final Settings settings;
  private final EvaluatorRegistry registry;
  private final ActorSystem<SpawnProtocol.Command> system;
  private final Attempts attempts;
  private final TaskLoop loop;
  private final CompletableFuture<Done> stopped = new CompletableFuture<>();
  private final java.util.concurrent.atomic.AtomicLong finished = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong cancelled = new java.util.concurrent.atomic.AtomicLong();

  /**
   * Worker settings.
   *
   * @param kafka how to reach the Kafka cluster (bootstrap servers and client settings)
   * @param devices the devices this worker owns, one DeviceWorker each
   * @param workerId a unique id: the static group member id and the transactional id's suffix
   * @param commitInterval how often finished results and their offsets are committed
   * @param revokeDrain how long a revoked partition's running tasks get to finish before they are cancelled
   * @param stopGrace how long a stop lets running tasks finish before it cancels them
   * @param sessionTimeout how long the group waits for a silent worker (a crash, a pause) before moving its partitions
   * @param timeouts the longest a task of each kind may run on a device
   * @param maxAttempts starts after which a task that keeps taking workers down is dead-lettered as poison
   * @param allowFaults honour synthetic tasks' fault injection (chaos testing only)
   * @param leaveOnStop leave the group when stopped (false: stay a member for the session timeout, for a restart in place)
   * @param limits the work one task may ask for (graph sizes, epochs, model size), checked before it runs
   */
  public record Settings(KafkaClients kafka, List<Device> devices, String workerId, Duration commitInterval,
      Duration revokeDrain, Duration stopGrace, Duration sessionTimeout, TaskTimeouts timeouts, int maxAttempts,
      boolean allowFaults, boolean leaveOnStop, TaskLimits limits) {

    /** Default revocation drain: longer than a BREC pair's training, well under the 2 h pair limit. */
    public static final Duration DEFAULT_REVOKE_DRAIN = Duration.ofMinutes(10);
    /** Default stop grace: deploy/'s terminationGracePeriodSeconds (600) less a margin to hand the rest back. */
    public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(540);
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    public Settings {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("max attempts must be at least 1, got " + maxAttempts);
      }
    }

    /** Defaults on the plaintext cluster at {@code bootstrap} (the embedded broker, tests). */
    public static Settings of(String bootstrap, List<Device> devices) {
      return of(KafkaClients.of(bootstrap), devices);
    }

    public static Settings of(KafkaClients kafka, List<Device> devices) {
      return new Settings(kafka, devices, "worker-" + UUID.randomUUID().toString().substring(0, 8),
          Duration.ofMillis(100), DEFAULT_REVOKE_DRAIN, DEFAULT_STOP_GRACE, DEFAULT_SESSION_TIMEOUT,
          TaskTimeouts.DEFAULTS, DEFAULT_MAX_ATTEMPTS, false, true, TaskLimits.DEFAULTS);
    }

    public Settings withWorkerId(String id) {
      return new Settings(kafka, devices, id, commitInterval, revokeDrain, stopGrace, sessionTimeout, timeouts,
          maxAttempts, allowFaults, leaveOnStop, limits);
    }

    public Settings withCommitInterval(Duration d) {
      return new Settings(kafka, devices, workerId, d, revokeDrain, stopGrace, sessionTimeout, timeouts,
          maxAttempts, allowFaults, leaveOnStop, limits);
    }

    public Settings withDrain(Duration revokeDrain, Duration stopGrace) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, sessionTimeout, timeouts,
          maxAttempts, allowFaults, leaveOnStop, limits);
    }

    public Settings withSessionTimeout(Duration d) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, d, timeouts,
          maxAttempts, allowFaults, leaveOnStop, limits);
    }

    public Settings withTimeouts(TaskTimeouts t) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, sessionTimeout, t,
          maxAttempts, allowFaults, leaveOnStop, limits);
    }

    public Settings withMaxAttempts(int n) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, sessionTimeout, timeouts,
          n, allowFaults, leaveOnStop, limits);
    }

    public Settings withFaults(boolean allow) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, sessionTimeout, timeouts,
          maxAttempts, allow, leaveOnStop, limits);
    }

    public Settings withLimits(TaskLimits l) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, sessionTimeout, timeouts,
          maxAttempts, allowFaults, leaveOnStop, l);
    }

    public Settings withLeaveOnStop(boolean leave) {
      return new Settings(kafka, devices, workerId, commitInterval, revokeDrain, stopGrace, sessionTimeout, timeouts,
          maxAttempts, allowFaults, leave, limits);
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
      public void onStarted(Device device, TaskKind kind) {
        observer.onStarted(device, kind);
      }

      @Override
      public void onFinished(Device device, TaskKind kind, io.expresso.proto.v1.Result result, double seconds) {
        costs.onFinished(device, kind, result, seconds);
        finished.incrementAndGet();
        observer.onFinished(device, kind, result, seconds);
      }

      @Override
      public void onCancelled(Device device, TaskKind kind, Cancellation.Reason reason, double seconds) {
        cancelled.incrementAndGet();
        observer.onCancelled(device, kind, reason, seconds);
      }

      @Override
      public void onPoison(Device device, TaskKind kind) {
        observer.onPoison(device, kind);
      }

      @Override
      public void onAttempts(TaskKind kind, int tasks) {
        observer.onAttempts(kind, tasks);
      }
    };
    TaskProcessor processor = new TaskProcessor(registry, settings.workerId(), both, settings.timeouts(), settings.limits());
    DeviceWorker.Settings ds = new DeviceWorker.Settings(processor, settings.timeouts(), settings.maxAttempts(), both,
        settings.commitInterval());
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
    this.attempts = new Attempts(settings.kafka(), settings.workerId());
    this.loop = new TaskLoop(new TaskLoop.Settings(settings.kafka(), settings.workerId(), GROUP,
        settings.commitInterval(), settings.revokeDrain(), settings.sessionTimeout(), settings.leaveOnStop()),
        pool, attempts, observer,
        () -> CoordinatedShutdown.get(system).runAll(CoordinatedShutdown.unknownReason()));
    CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseServiceUnbind(), "drain-tasks", this::drain);
  }

  /** Starts a worker; it serves until {@link #close} or SIGTERM. */
  public static Worker start(Settings settings, EvaluatorRegistry registry, TaskObserver observer) {
    // Evaluators that read or write expresso.models (train/attack) find the cluster here.
    registry.useKafka(settings.kafka());
    Worker w = new Worker(settings, registry, observer);
    w.loop.start();
    return w;
  }

  public String id() {
    return settings.workerId();
  }

  /**
   * What this worker's devices did so far: tasks that ran to a result (success or error, committed
   * or not) and tasks cancelled mid-run to be redone elsewhere.
   */
  public String tally() {
    return finished.get() + " tasks run to a result, " + cancelled.get() + " cancelled and handed back";
  }

  /** Completes when the worker has stopped (after a drain or a fatal error). */
  public CompletionStage<Done> whenStopped() {
    return stopped;
  }

  /** Stops the task loop: running tasks get the stop grace, then are cancelled and handed back. */
  private CompletionStage<Done> drain() {
    return loop.stop(settings.stopGrace()).thenApply(v -> {
      attempts.close();
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

  /** The longest a stop may take: the grace, the cancellation grace, and time to commit and leave. */
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
