package io.expresso.testing;

import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Topics;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real embedded broker (KRaft, loopback) with the task topics and one worker on it, shared by the
 * tests of a class: register it as a {@code static} field with {@code @RegisterExtension}. The
 * worker stops before the broker, so it never outlives the cluster it commits to.
 */
public final class BrokerAndWorker implements BeforeAllCallback, AfterAllCallback {

  private final String devices;
  private final boolean allowUserModules;
  private EmbeddedBroker broker;
  private Worker worker;

  /** @param devices the worker's devices, e.g. {@code cpu:2} */
  public BrokerAndWorker(String devices) {
    this(devices, false);
  }

  /** @param allowUserModules the worker runs users' TorchScript modules ({@code worker --allow-user-models}) */
  public BrokerAndWorker(String devices, boolean allowUserModules) {
    this.devices = devices;
    this.allowUserModules = allowUserModules;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    broker = EmbeddedBroker.start(0, null);
    Topics.ensure(broker.bootstrap(), 2);
    EvaluatorRegistry registry = EvaluatorRegistry.defaults();
    worker = Worker.start(Worker.Settings.of(broker.bootstrap(), DeviceSlot.parse(devices)),
        allowUserModules ? registry.allowUserModules() : registry, TaskObserver.NONE);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (worker != null) {
      worker.close(); // also closes its evaluators' Kafka clients (checkpoint stores)
    }
    if (broker != null) {
      broker.close();
    }
  }

  /** The broker's {@code host:port}. */
  public String bootstrap() {
    return broker.bootstrap();
  }
}
