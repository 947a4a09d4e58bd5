package io.expresso.runtime.actors;

import io.expresso.runtime.Cancellation;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.TaskProcessor;
import io.expresso.runtime.TaskTimeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor that owns one device: it runs the tasks it is handed one after another on the
 * device's own dispatcher (a single pinned thread) and then tells the pool it is free again.
 * A task the broker already delivered {@link Settings#maxAttempts} times without a result is not
 * run but ends as poison. Each task runs under its kind's time limit, counted from its own start.
 */
final class DeviceWorker {

  /**
   * What every device worker of a process shares. {@code quarantine} lets a task that was delivered
   * before (and may be what took a worker down) run with every other device idle, so a crash it
   * causes charges no innocent task with a delivery.
   */
  record Settings(TaskProcessor processor, TaskTimeouts timeouts, int maxAttempts, TaskObserver observer,
      ReentrantReadWriteLock quarantine) {

    Settings(TaskProcessor processor, TaskTimeouts timeouts, int maxAttempts, TaskObserver observer) {
      this(processor, timeouts, maxAttempts, observer, new ReentrantReadWriteLock(true));
    }

    /**
     * Starts after which a task runs alone, in quarantine: the last attempt before it would become
     * poison. Earlier retries run in chunks as usual, so a crash that charged thousands of cheap
     * in-flight tasks once does not make each of them wait in quarantine; a task that crashed
     * twice gets its last attempt alone, and its crash then charges nobody else.
     */
    int quarantineAt() {
      return Math.max(1, maxAttempts - 1);
    }
  }

  sealed interface Command permits Run {}

  /** Run these tasks, in order. */
  record Run(List<Job> jobs) implements Command {}

  private DeviceWorker() {}

  static Behavior<Command> create(DeviceSlot device, Settings settings, ActorRef<DevicePool.Command> pool) {
    return Behaviors.setup(ctx -> {
      Watchdog watchdog = new Watchdog(settings.timeouts());
      // one periodic check per device instead of a timer per task: a no-op task must not pay for
      // scheduling and cancelling a timer; a limit is then enforced to within a second
      ctx.getSystem().scheduler().scheduleAtFixedRate(Duration.ofSeconds(1), Duration.ofSeconds(1), watchdog,
          ctx.getSystem().executionContext());
      return Behaviors.receive(Command.class)
        .onMessage(Run.class, run -> {
          boolean suspect = run.jobs().stream().anyMatch(j -> j.priorAttempts() >= settings.quarantineAt());
          Lock lock = suspect ? settings.quarantine().writeLock() : settings.quarantine().readLock();
          // a suspect waits at most a minute for the other devices (they may run hour-long tasks);
          // past that it runs beside them, and a crash it causes may charge them an attempt
          boolean locked = suspect ? lock.tryLock(60, TimeUnit.SECONDS) : lock.tryLock(Long.MAX_VALUE, TimeUnit.DAYS);
          try {
            runChunk(run.jobs(), device, settings, watchdog);
          } finally {
            if (locked) {
              lock.unlock();
            }
            pool.tell(new DevicePool.Freed(ctx.getSelf()));
          }
          return Behaviors.same();
        })
        .build();
    });
  }

  /** Cancels the device's running task once it has run past its kind's limit. */
  private static final class Watchdog implements Runnable {
    private final TaskTimeouts timeouts;
    private volatile Job running;
    private volatile long startedNanos;

    Watchdog(TaskTimeouts timeouts) {
      this.timeouts = timeouts;
    }

    void started(Job j) {
      startedNanos = System.nanoTime();
      running = j;
    }

    void finished() {
      running = null;
    }

    @Override
    public void run() {
      Job j = running;
      if (j != null && j.kind() != null && System.nanoTime() - startedNanos > timeouts.of(j.kind()).toNanos()) {
        j.cancellation().cancel(Cancellation.Reason.TIMEOUT);
      }
    }
  }

  private static void runChunk(List<Job> jobs, DeviceSlot device, Settings s, Watchdog watchdog) {
    List<Job> toRun = new ArrayList<>(jobs.size());
    for (Job j : jobs) {
      if (j.priorAttempts() >= s.maxAttempts()) {
        if (j.start()) {
          j.finish(s.processor().poison(j.record(), device, j.priorAttempts()));
        }
      } else if (j.queued()) {
        toRun.add(j);
      }
    }
    if (!toRun.isEmpty() && toRun.get(0).kind() != null) { // a chunk is of one kind; a record of none counts nowhere
      s.observer().onAttempts(toRun.get(0).kind(), toRun.size());
    }
    for (Job j : toRun) {
      if (!j.start()) {
        continue; // dropped while it waited: the worker stops
      }
      watchdog.started(j);
      Outcome o;
      try {
        o = s.processor().process(j.record(), device, j.cancellation(), j.priorAttempts() + 1);
      } finally {
        watchdog.finished();
      }
      j.finish(o);
    }
  }

  /** The dispatcher config path of {@code device}: one thread, pinned to that device's actor. */
  static String dispatcher(DeviceSlot device) {
    return "expresso.dispatchers." + device.type() + "-" + device.index() + "-" + device.slot();
  }

  /** HOCON for the per-device dispatchers. */
  static String dispatcherConfig(Iterable<DeviceSlot> devices) {
    StringBuilder sb = new StringBuilder();
    for (DeviceSlot d : devices) {
      sb.append(dispatcher(d)).append(" {\n")
          .append("  type = PinnedDispatcher\n")
          .append("  executor = thread-pool-executor\n")
          .append("  thread-pool-executor.allow-core-timeout = off\n")
          .append("}\n");
    }
    return sb.toString();
  }
}
