package io.expresso.runtime;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The actor that owns one device: it runs one task at a time on the device's own dispatcher (a
 * single pinned thread), replies with the {@link Outcome} and tells the pool it is free again.
 */
final class DeviceWorker {

  sealed interface Command permits Run {}

  /** Process {@code record} and reply to {@code replyTo}. */
  record Run(ConsumerRecord<String, byte[]> record, ActorRef<Outcome> replyTo) implements Command {}

  private DeviceWorker() {}

  static Behavior<Command> create(Device device, TaskProcessor processor, ActorRef<DevicePool.Command> pool) {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
        .onMessage(Run.class, run -> {
          run.replyTo().tell(processor.process(run.record(), device));
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
