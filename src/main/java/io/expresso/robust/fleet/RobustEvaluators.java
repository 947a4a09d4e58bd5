package io.expresso.robust.fleet;

import io.expresso.robust.TrainOutcome;
import io.expresso.robust.JobRunner;
import io.expresso.robust.AttackOutcome;
import io.expresso.robust.ModelStore;
import io.expresso.robust.RobustProtos;
import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TrainTask;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.Evaluator;
import io.expresso.runtime.EvaluatorProvider;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskFailure;
import io.expresso.runtime.TaskKind;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The robustness study's evaluators for the runtime: train tasks and attack tasks whose field
 * {@code job} carries a {@link TrainJob} / {@link AttackJob} (see {@link RobustProtos}). One {@link JobRunner} per
 * device (the runtime calls each device from one thread); checkpoints go to and come from
 * {@code expresso.models} through a {@link KafkaModelStore} on the worker's cluster (the
 * registry's {@link EvaluatorRegistry#kafka}, set by the worker).
 */
public final class RobustEvaluators implements EvaluatorProvider {

  /** Null for the worker's own {@code expresso.models}, found at {@link #register}. */
  private Supplier<ModelStore> storeFactory;
  private volatile ModelStore store;
  private final Map<String, JobRunner> runners = new ConcurrentHashMap<>();
  private volatile EvaluatorRegistry registry;
  /** Where epochs go: expresso.progress on the worker's cluster; none outside a worker. */
  private volatile TrainProgressPublisher progress;

  /** For ServiceLoader: the store is the worker's {@code expresso.models} topic. */
  public RobustEvaluators() {
    this(null);
  }

  public RobustEvaluators(Supplier<ModelStore> storeFactory) {
    this.storeFactory = storeFactory;
  }

  @Override
  public void register(EvaluatorRegistry registry) {
    this.registry = registry;
    if (storeFactory == null) {
      // the worker sets its cluster on the registry when it starts, after this: look it up at first use
      storeFactory = () -> registry.kafka()
          .map(k -> new KafkaModelStore(k, "worker@" + k.bootstrap()))
          .orElseThrow(() -> new TaskFailure("invalid-task", "robust evaluators run only in a worker (no Kafka cluster set)"));
    }
    registry.onClose(this::close);
    // users' TorchScript modules live on the same topic, keyed by sha256:<hex>
    registry.useModuleLookup(key -> store().get(key));
    registry.register(TaskKind.TRAIN, new Evaluator<TrainTask>() {
      @Override
      public boolean accepts(TrainTask task) {
        return task.hasJob();
      }

      @Override
      public Result.Builder evaluate(TrainTask task, DeviceSlot device, BooleanSupplier cancelled) {
        return train(task, device, cancelled);
      }

      @Override
      public String toString() {
        return "robust-train";
      }
    });
    registry.register(TaskKind.ATTACK, new Evaluator<AttackTask>() {
      @Override
      public boolean accepts(AttackTask task) {
        return task.hasJob();
      }

      @Override
      public Result.Builder evaluate(AttackTask task, DeviceSlot device, BooleanSupplier cancelled) {
        return attack(task, device, cancelled);
      }

      @Override
      public String toString() {
        return "robust-attack";
      }
    });
  }

  /** Frees the loaded models and closes the checkpoint store's Kafka clients (the worker stops). */
  synchronized void close() throws Exception {
    runners.values().forEach(JobRunner::close);
    runners.clear();
    if (store instanceof AutoCloseable c) {
      c.close();
    }
    store = null;
    if (progress != null) {
      progress.close();
      progress = null;
    }
  }

  /** The progress publisher on the worker's cluster, created at first use; null without one. */
  private TrainProgressPublisher progress() {
    if (progress == null && registry != null && registry.kafka().isPresent()) {
      synchronized (this) {
        if (progress == null) {
          io.expresso.runtime.kafka.KafkaClients k = registry.kafka().get();
          // pid@host: the process that trains, as people find it in their process list
          progress = new TrainProgressPublisher(k, java.lang.management.ManagementFactory.getRuntimeMXBean().getName());
        }
      }
    }
    return progress;
  }

  @Override
  public String toString() {
    return "robust evaluators";
  }

  private ModelStore store() {
    ModelStore s = store;
    if (s == null) {
      synchronized (this) {
        if (store == null) {
          store = storeFactory.get();
        }
        s = store;
      }
    }
    return s;
  }

  private JobRunner runner(DeviceSlot device) {
    ModelStore s = store();
    return runners.computeIfAbsent(device.id(), id -> new JobRunner(s, device.modelName()));
  }

  Result.Builder train(TrainTask task, DeviceSlot device, BooleanSupplier cancelled) {
    TrainOutcome o;
    try {
      TrainProgressPublisher p = progress();
      String experiment = task.getHeader().getExperimentId();
      String taskId = task.getHeader().getTaskId();
      o = runner(device).train(RobustProtos.job(task.getJob()), cancelled, p == null ? (j, max, e) -> {}
          : (j, max, e) -> p.send(experiment, taskId, j, max, e));
    } catch (IllegalArgumentException e) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "train task " + task.getHeader().getTaskId() + ": " + e.getMessage(), e);
    }
    return Result.newBuilder().setTrain(RobustProtos.result(o));
  }

  Result.Builder attack(AttackTask task, DeviceSlot device, BooleanSupplier cancelled) {
    AttackOutcome o;
    try {
      o = runner(device).attack(RobustProtos.job(task.getJob()), cancelled);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "attack task " + task.getHeader().getTaskId() + ": " + e.getMessage(), e);
    }
    return Result.newBuilder().setAttack(RobustProtos.result(o, JobRunner.RULE.delta()));
  }
}
