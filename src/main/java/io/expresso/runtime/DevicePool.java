package io.expresso.runtime;

import java.util.ArrayDeque;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Spawns one {@link DeviceWorker} per device, each on its own dispatcher, and hands each submitted
 * task to a free device (queueing while all are busy; the stream in front bounds that queue).
 */
final class DevicePool {

  sealed interface Command permits Submit, Freed {}

  /** A task record to run on the next free device. */
  record Submit(ConsumerRecord<String, byte[]> record, ActorRef<Outcome> replyTo) implements Command {}

  /** A device finished its task. */
  record Freed(ActorRef<DeviceWorker.Command> worker) implements Command {}

  private DevicePool() {}

  static Behavior<Command> create(List<Device> devices, TaskProcessor processor) {
    return Behaviors.setup(ctx -> {
      ArrayDeque<ActorRef<DeviceWorker.Command>> idle = new ArrayDeque<>();
      for (Device d : devices) {
        idle.add(ctx.spawn(DeviceWorker.create(d, processor, ctx.getSelf()),
            "device-" + d.type() + "-" + d.index(), DispatcherSelector.fromConfig(DeviceWorker.dispatcher(d))));
      }
      ArrayDeque<Submit> waiting = new ArrayDeque<>();
      return Behaviors.receive(Command.class)
          .onMessage(Submit.class, s -> {
            ActorRef<DeviceWorker.Command> w = idle.poll();
            if (w == null) {
              waiting.add(s);
            } else {
              w.tell(new DeviceWorker.Run(s.record(), s.replyTo()));
            }
            return Behaviors.same();
          })
          .onMessage(Freed.class, f -> {
            Submit next = waiting.poll();
            if (next == null) {
              idle.add(f.worker());
            } else {
              f.worker().tell(new DeviceWorker.Run(next.record(), next.replyTo()));
            }
            return Behaviors.same();
          })
          .build();
    });
  }
}
