package io.expresso.runtime;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor that owns one device: it runs the tasks it is handed one after another on the
 * device's own dispatcher (a single pinned thread), completes each task's outcome, and then tells
 * the pool it is free again.
 */
final class DeviceWorker {

  sealed interface Command permits Run {}

  /** Run these tasks, in order. */
  record Run(List<Job> jobs) implements Command {}

  private DeviceWorker() {}

  static Behavior<Command> create(Device device, TaskProcessor processor, ActorRef<DevicePool.Command> pool) {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
        .onMessage(Run.class, run -> {
          for (Job job : run.jobs()) {
            job.outcome().complete(processor.process(job.record(), device));
          }
          pool.tell(new DevicePool.Freed(ctx.getSelf()));
          return Behaviors.same();
        })
        .build());
  }

  /** The dispatcher config path of {@code device}: one thread, pinned to that device's actor. */
  static String dispatcher(Device device) {
    return "expresso.dispatchers." + device.type() + "-" + device.index();
  }

  /** HOCON for the per-device dispatchers. */
  static String dispatcherConfig(Iterable<Device> devices) {
    StringBuilder sb = new StringBuilder();
    for (Device d : devices) {
      sb.append(dispatcher(d)).append(" {\n")
          .append("  type = PinnedDispatcher\n")
          .append("  executor = thread-pool-executor\n")
          .append("  thread-pool-executor.allow-core-timeout = off\n")
          .append("}\n");
    }
    return sb.toString();
  }
}
