package io.expresso.cli;

import io.expresso.metrics.LagMonitor;
import io.expresso.metrics.Metrics;
import io.expresso.metrics.TaskMetricsObserver;
import io.expresso.engine.MemoryBudget;
import io.expresso.engine.NativeEngine;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskLimits;
import io.expresso.runtime.TaskTimeouts;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.ShareGroup;
import io.expresso.runtime.kafka.Topics;
import io.expresso.web.HttpEndpoint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code expresso worker}: consume tasks, evaluate them on this machine's devices, produce results. */
@Command(name = "worker", mixinStandardHelpOptions = true,
    description = "Serve tasks from Kafka (share group expresso-workers) on this machine's devices: each device"
        + " slot takes the next task when idle; a task is acknowledged once its result is on expresso.results"
        + " (at least once: a task run twice counts once). On SIGTERM, running tasks finish within"
        + " --stop-grace, the rest are cancelled and handed back.")
final class WorkerCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();
  @CommandLine.Mixin TopicOptions topics = new TopicOptions();

  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();

  @Option(names = "--devices", paramLabel = "D", description = "auto (every GPU the CUDA driver reports, 4 evaluations at once on each, else one CPU device per core), cpu:N, or gpu:0,gpu:1; gpu:0x4 runs 4 evaluations at once on GPU 0"
      + " (default: ${DEFAULT-VALUE})")
  String devices = "auto";

  @Option(names = "--id", paramLabel = "ID", description = "worker id for logs, client ids and results' provenance"
      + " (deploy/ uses the pod name) (default: random)")
  String id;

  @Option(names = "--acquire", paramLabel = "N", description = "tasks one device slot acquires per poll, 1 to 10000,"
      + " fixed (default: adaptive, as many as keep the slot busy for about a thirtieth of the acquisition lock by the"
      + " recent task durations: tiny tasks many to a round trip, tasks of a second or more one by one)")
  Integer acquire;

  @Option(names = "--stop-grace", paramLabel = "T", description = "on SIGTERM, how long running tasks may finish before"
      + " they are cancelled and handed back; keep it under the platform's kill deadline (default: ${DEFAULT-VALUE},"
      + " deploy/'s 600 s less a margin)")
  String stopGrace = "540s";

  @Option(names = "--task-timeout", paramLabel = "KIND=T,...", description = "the longest a task may run on a device,"
      + " from its start there, per kind (default: pair=2h,train=24h,attack=12h,synthetic=15m)")
  String taskTimeout = "";

  @Option(names = "--max-deliveries", paramLabel = "N", description = "a task the broker delivered N times without a"
      + " result (it took down or was lost with workers) becomes an error result and a dead letter"
      + " 'poison: N deliveries'; 1 to 9, the share group's delivery limit is one more (default: ${DEFAULT-VALUE})")
  int maxDeliveries = Worker.Settings.DEFAULT_MAX_DELIVERIES;

  @Option(names = "--limits", paramLabel = "FILE", description = "limits on the work one task may ask for, as"
      + " properties (vertices, edges, dense-vertices, cubic-vertices, model-vertices, epochs, q, batch-size, hidden,"
      + " layers, width-x-depth, spec-chars, beam-width); unnamed ones keep their defaults (docs/runtime.md, Limits)")
  java.nio.file.Path limitsFile;

  @Option(names = "--limit", paramLabel = "KEY=N,...", description = "limits over those of --limits, e.g. vertices=5000,epochs=500")
  String limitOverrides;

  @Option(names = "--allow-faults", description = "chaos testing only: honour synthetic tasks' injected faults"
      + " (publish synthetic --fault crash|oom|hang), which halt or hang this worker")
  boolean allowFaults;

  @Option(names = "--allow-user-models", description = "run users' TorchScript modules (publish brec --model"
      + " torchscript:FILE): a module is code that runs with this worker's rights, so tasks naming one are refused"
      + " with an error result unless this is given")
  boolean allowUserModels;

  @Option(names = "--memory-budget", paramLabel = "SIZE", description = "activation memory one device may use per"
      + " forward/backward pass, e.g. 4g or 512m; larger batches are split into micro-batches with the same result"
      + " (default: a pool per device, half of a GPU's memory shared by its slots, half of the machine's, or the"
      + " container's, shared by the CPU devices, from which each pair takes what it needs to run as alone)")
  String memoryBudget;

  @Option(names = "--metrics-port", paramLabel = "M|A-B", description = "serve Prometheus /metrics on this port, or on"
      + " the first free one of A-B (workers sharing the host's network, as in deploy/docker-compose.yml)"
      + " (default: ${DEFAULT-VALUE} = any free port, printed)")
  String metricsPort = "0";

  @Option(names = "--metrics-host", paramLabel = "H", description = "address /metrics listens on; 0.0.0.0 to be scraped"
      + " from other hosts or containers (default: ${DEFAULT-VALUE}, this host only)")
  String metricsHost = "127.0.0.1";

  @Override
  public Integer call() throws Exception {
    precision.apply(spec);
    List<DeviceSlot> ds = UsageChecks.devices(spec, devices);
    if (acquire != null) {
      UsageChecks.range(spec, "--acquire", acquire, 1, 10_000);
    }
    int[] ports = UsageChecks.portRange(spec, "--metrics-port", metricsPort);
    UsageChecks.range(spec, "--max-deliveries", maxDeliveries, 1, ShareGroup.BROKER_MAX_DELIVERY_LIMIT - 1);
    Topics.Creation creation = topics.creation(spec);
    KafkaClients clients = kafka.clients(spec);
    Worker.Settings s;
    EvaluatorRegistry registry = EvaluatorRegistry.defaults();
    try {
      if (memoryBudget != null) {
        registry.useMemoryBudget(MemoryBudget.parse(memoryBudget));
      }
      if (allowUserModels) {
        registry.allowUserModules();
      }
      s = Worker.Settings.of(clients, ds).withAcquire(acquire == null ? Worker.Settings.ADAPTIVE : acquire)
          .withStopGrace(TaskTimeouts.duration(stopGrace))
          .withTimeouts(TaskTimeouts.parse(taskTimeout))
          .withMaxDeliveries(maxDeliveries)
          .withFaults(allowFaults)
          .withLimits((limitsFile == null ? TaskLimits.DEFAULTS : TaskLimits.read(limitsFile)).with(limitOverrides));
    } catch (IllegalArgumentException | java.io.IOException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (id != null) {
      s = s.withWorkerId(id);
    }
    String engine = engineLine();
    Topics.prepare(clients, creation, topics.create);
    Metrics metrics = new Metrics();
    ds.forEach(d -> metrics.tasks().registerDevice(d));
    try (HttpEndpoint http = HttpEndpoint.metrics(metricsHost, ports[0], ports[1], metrics);
         LagMonitor lag = LagMonitor.start(clients, Worker.GROUP, List.of(Topics.TASKS), metrics.tasks(), Duration.ofSeconds(5))) {
      Worker w = Worker.start(s, registry, new TaskMetricsObserver(metrics.tasks()));
      System.err.println("worker " + w.id() + ": serving " + clients.bootstrap() + " on " + ds + " (share group " + Worker.GROUP + ")"
          + ", metrics http://" + metricsHost + ":" + http.port() + "/metrics"
          + (allowUserModels ? "; runs users' TorchScript modules" : "") + "\n  engine: " + engine);
      // On SIGTERM the JVM exits as soon as its shutdown hooks finish, maybe before this thread
      // runs again: a hook of ours waits for the drained worker and says so.
      AtomicBoolean said = new AtomicBoolean();
      Runnable sayStopped = () -> {
        if (said.compareAndSet(false, true)) {
          System.err.println("worker " + w.id() + ": stopped");
        }
      };
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          w.awaitTermination();
        } catch (Exception e) {
          return;
        }
        sayStopped.run();
      }, "expresso-worker-stopped"));
      w.awaitTermination();
      sayStopped.run();
    }
    return 0;
  }

  /**
   * Starts the engine (the worker's tasks then record the threads it reports) and says what is in
   * force; a worker whose engine does not load still serves the tasks that need none, and the
   * others fail with the reason.
   */
  static String engineLine() {
    try {
      return NativeEngine.start().text();
    } catch (RuntimeException | LinkageError e) {
      return "did not start (" + e.getClass().getSimpleName() + ": " + e.getMessage() + "); tasks that run a model fail";
    }
  }
}
