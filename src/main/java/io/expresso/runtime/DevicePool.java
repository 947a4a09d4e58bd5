package io.expresso.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Spawns one {@link DeviceWorker} per device, each on its own dispatcher, and hands queued tasks
 * to free devices. A free device gets a chunk of the queue: a small share (so long tasks spread
 * over all devices) that grows with the backlog (so cheap tasks do not pay a message round trip
 * each). The stream in front bounds the queue.
 */
final class DevicePool {

  /** The largest chunk one device takes at once. */
  static final int MAX_CHUNK = 64;

  sealed interface Command permits Submit, Freed {}

  /** Tasks to run on the devices. */
  record Submit(List<Job> jobs) implements Command {}

  /** A device finished its chunk. */
  record Freed(ActorRef<DeviceWorker.Command> worker) implements Command {}

  private DevicePool() {}

  static Behavior<Command> create(List<Device> devices, TaskProcessor processor) {
    return Behaviors.setup(ctx -> {
      ArrayDeque<ActorRef<DeviceWorker.Command>> idle = new ArrayDeque<>();
      for (Device d : devices) {
        idle.add(ctx.spawn(DeviceWorker.create(d, processor, ctx.getSelf()),
            "device-" + d.type() + "-" + d.index(), DispatcherSelector.fromConfig(DeviceWorker.dispatcher(d))));
      }
      ArrayDeque<Job> queue = new ArrayDeque<>();
      int shares = devices.size() * 4;
      Runnable dispatch = () -> {
        while (!idle.isEmpty() && !queue.isEmpty()) {
          int chunk = Math.max(1, Math.min(MAX_CHUNK, queue.size() / shares));
          List<Job> jobs = new ArrayList<>(chunk);
          for (int i = 0; i < chunk; i++) {
            jobs.add(queue.poll());
          }
          idle.poll().tell(new DeviceWorker.Run(jobs));
        }
      };
      return Behaviors.receive(Command.class)
          .onMessage(Submit.class, s -> {
            queue.addAll(s.jobs());
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
}
