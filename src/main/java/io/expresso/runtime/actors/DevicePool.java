package io.expresso.runtime.actors;

import io.expresso.runtime.DeviceSlot;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Spawns one {@link DeviceWorker} per device, each on its own dispatcher, and hands the tasks the
 * slots acquired to free devices. Topic partitions take turns, so the tasks of one (one kind's
 * long trainings, say) do not hold back the tasks of another that were delivered with them.
 * A free device gets a chunk of one partition's queue, of one kind, as many tasks as fit in about {@link
 * #CHUNK_MICROS} of device time by the running cost estimate: cheap tasks travel many to a
 * message, long ones one at a time, so a long task never holds others back from an idle device.
 * A task started often enough before that it may be what takes workers down runs alone (see
 * {@link DeviceWorker.Settings#quarantineAt}).
 */
final class DevicePool {

  /** The largest chunk one device takes at once. */
  static final int MAX_CHUNK = 64;

  /** Target device time of one chunk, in microseconds. */
  static final long CHUNK_MICROS = 20_000;

  sealed interface Command permits Submit, Freed {}

  /** Tasks to run on the devices (already in order within each partition). */
  record Submit(List<Job> jobs) implements Command {}

  /** A device finished its chunk. */
  record Freed(ActorRef<DeviceWorker.Command> worker) implements Command {}

  private DevicePool() {}

  static Behavior<Command> create(List<DeviceSlot> devices, DeviceWorker.Settings settings, CostModel costs) {
    return Behaviors.setup(ctx -> {
      ArrayDeque<ActorRef<DeviceWorker.Command>> idle = new ArrayDeque<>();
      for (DeviceSlot d : devices) {
        idle.add(ctx.spawn(DeviceWorker.create(d, settings, ctx.getSelf()),
            "device-" + d.type() + "-" + d.index() + "-" + d.slot(), DispatcherSelector.fromConfig(DeviceWorker.dispatcher(d))));
      }
      Queues queues = new Queues(devices.size() * 4, costs, settings.quarantineAt());
      Runnable dispatch = () -> {
        while (!idle.isEmpty()) {
          List<Job> chunk = queues.nextChunk();
          if (chunk.isEmpty()) {
            return;
          }
          idle.poll().tell(new DeviceWorker.Run(chunk));
        }
      };
      return Behaviors.receive(Command.class)
          .onMessage(Submit.class, s -> {
            s.jobs().forEach(queues::add);
            dispatch.run();
            return Behaviors.same();
          })
          .onMessage(Freed.class, f -> {
            idle.add(f.worker());
            dispatch.run();
            return Behaviors.same();
          })
          .build();
    });
  }

  /** Per-partition queues served in turn. */
  static final class Queues {
    private final Map<TopicPartition, ArrayDeque<Job>> byPartition = new LinkedHashMap<>();
    private final ArrayDeque<TopicPartition> turn = new ArrayDeque<>();
    private final int shares;
    private final CostModel costs;
    private final int quarantineAt;
    private int size;

    /** {@code quarantineAt}: a task started this many times before runs alone. */
    Queues(int shares, CostModel costs, int quarantineAt) {
      this.shares = shares;
      this.costs = costs;
      this.quarantineAt = quarantineAt;
    }

    void add(Job job) {
      ArrayDeque<Job> q = byPartition.computeIfAbsent(job.partition(), tp -> new ArrayDeque<>());
      if (q.isEmpty()) {
        turn.add(job.partition());
      }
      q.add(job);
      size++;
    }

    /** The next partition's chunk, or empty when nothing runnable is queued. */
    List<Job> nextChunk() {
      while (!turn.isEmpty()) {
        TopicPartition tp = turn.poll();
        ArrayDeque<Job> q = byPartition.get(tp);
        dropDeadHead(q);
        if (q.isEmpty()) {
          byPartition.remove(tp);
          continue;
        }
        Job first = q.peek();
        long each = costs.estimate(first.kind());
        int limit = (int) Math.max(1, Math.min(Math.min(MAX_CHUNK, size / shares), CHUNK_MICROS / each));
        List<Job> chunk = new ArrayList<>();
        do {
          chunk.add(q.poll());
          size--;
          dropDeadHead(q);
        } while (first.priorAttempts() < quarantineAt && chunk.size() < limit && !q.isEmpty()
            && q.peek().priorAttempts() < quarantineAt && q.peek().kind() == first.kind());
        if (q.isEmpty()) {
          byPartition.remove(tp);
        } else {
          turn.add(tp);
        }
        return chunk;
      }
      return List.of();
    }

    /** Jobs dropped while queued (the worker stops: they are released) are skipped. */
    private void dropDeadHead(ArrayDeque<Job> q) {
      while (!q.isEmpty() && !q.peek().queued()) {
        q.poll();
        size--;
      }
    }
  }
}
