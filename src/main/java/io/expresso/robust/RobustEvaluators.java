package io.expresso.robust;

import io.expresso.proto.v1.AttackTask;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TrainResult;
import io.expresso.proto.v1.TrainTask;
import io.expresso.attack.AttackResult;
import io.expresso.runtime.Device;
import io.expresso.runtime.Evaluator;
import io.expresso.runtime.EvaluatorProvider;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskFailure;
import io.expresso.runtime.TaskKind;
import io.expresso.train.CountErrors;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The robustness study's evaluators for the runtime: train tasks and attack tasks whose field
 * {@code robust_job} carries a {@link TrainJob} / {@link AttackJob}. One {@link JobRunner} per
 * device (the runtime calls each device from one thread); checkpoints go to and come from
 * {@code expresso.models} through a {@link KafkaModelStore} on the worker's cluster (the
 * registry's {@link EvaluatorRegistry#kafka}, set by the worker).
 */
public final class RobustEvaluators implements EvaluatorProvider {

  /** Null for the worker's own {@code expresso.models}, found at {@link #register}. */
  private Supplier<ModelStore> storeFactory;
  private volatile ModelStore store;
  private final Map<String, JobRunner> runners = new ConcurrentHashMap<>();

  /** For ServiceLoader: the store is the worker's {@code expresso.models} topic. */
  public RobustEvaluators() {
    this(null);
  }

  public RobustEvaluators(Supplier<ModelStore> storeFactory) {
    this.storeFactory = storeFactory;
  }

  @Override
  public void register(EvaluatorRegistry registry) {
    if (storeFactory == null) {
      // the worker sets its cluster on the registry when it starts, after this: look it up at first use
      storeFactory = () -> registry.kafka()
          .map(k -> new KafkaModelStore(k, "worker@" + k.bootstrap()))
          .orElseThrow(() -> new TaskFailure("invalid-task", "robust evaluators run only in a worker (no Kafka cluster set)"));
    }
    registry.onClose(this::close);
    registry.register(TaskKind.TRAIN, new Evaluator<TrainTask>() {
      @Override
      public boolean accepts(TrainTask task) {
        return !task.getRobustJob().isEmpty();
      }

      @Override
      public Result.Builder evaluate(TrainTask task, Device device, BooleanSupplier cancelled) {
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
        return !task.getRobustJob().isEmpty();
      }

      @Override
      public Result.Builder evaluate(AttackTask task, Device device, BooleanSupplier cancelled) {
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
  }

  @Override
  public String toString() {
    return "robust evaluators";
  }

  private JobRunner runner(Device device) {
    ModelStore s = store;
    if (s == null) {
      synchronized (this) {
        if (store == null) {
          store = storeFactory.get();
        }
        s = store;
      }
    }
    ModelStore finalStore = s;
    return runners.computeIfAbsent(device.id(), id -> new JobRunner(finalStore, device.modelName()));
  }

  Result.Builder train(TrainTask task, Device device, BooleanSupplier cancelled) {
    TrainJob job;
    try {
      job = RobustJson.read(task.getRobustJob(), TrainJob.class);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure("invalid-task", "train task " + task.getTaskId() + ": " + e.getMessage());
    }
    TrainOutcome o;
    try {
      o = runner(device).train(job, cancelled);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure("invalid-task", "train task " + task.getTaskId() + ": " + e.getMessage());
    }
    CountErrors main = o.errors().get(job.dataset());
    TrainResult.Builder r = TrainResult.newBuilder().setModel(job.spec()).setPattern(job.pattern().cliName())
        .setDataset(job.dataset()).setSeed(job.seed()).setCheckpointKey(job.modelId())
        .setEpochs(o.epochs()).setFinalLoss(o.finalLoss()).setValidationMae(o.bestValidationL1())
        .setBestEpoch(o.bestEpoch()).setCorrectTest(o.correctTest())
        .setRobustOutcome(RobustJson.write(o));
    if (main != null) {
      r.setTestMae(main.l1()).setTestLc(main.lc());
    }
    return Result.newBuilder().setTrain(r);
  }

  Result.Builder attack(AttackTask task, Device device, BooleanSupplier cancelled) {
    AttackJob job;
    try {
      job = RobustJson.read(task.getRobustJob(), AttackJob.class);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure("invalid-task", "attack task " + task.getTaskId() + ": " + e.getMessage());
    }
    AttackOutcome o;
    try {
      o = runner(device).attack(job, cancelled);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure("invalid-task", "attack task " + task.getTaskId() + ": " + e.getMessage());
    }
    return Result.newBuilder().setAttack(attackResult(job, o));
  }

  /** The result message of an attack outcome: what metrics and the live page read. */
  static io.expresso.proto.v1.AttackResult.Builder attackResult(AttackJob job, AttackOutcome o) {
    io.expresso.proto.v1.AttackResult.Builder r = io.expresso.proto.v1.AttackResult.newBuilder()
        .setModel(job.spec()).setCheckpointKey(job.modelId()).setPattern(o.summary().pattern().cliName())
        .setSpace(job.space().cliName()).setBeamWidth(job.beamWidth()).setDelta(1.0)
        .setNr(o.summary().nr()).setNrTransfer(o.nrTransfer()).setAttacked(o.summary().attacked())
        .setRobustOutcome(RobustJson.write(o));
    for (int b : o.summary().budgets()) {
      r.addBudgets(b);
    }
    for (double f : o.summary().fractions()) {
      r.addBudgetFractions(f);
    }
    for (double v : o.summary().successRate()) {
      r.addSuccessRate(v);
    }
    for (double v : o.transferRate()) {
      r.addTransferRate(v);
    }
    int i = 0;
    for (AttackResult a : o.summary().results()) {
      GraphOutcome.Builder g = GraphOutcome.newBuilder().setIndex(i++).setGraph(a.cleanGraph6())
          .setTrueCount(a.cleanCount()).setPrediction(a.cleanPrediction());
      for (int b : a.cleanCorrect() ? o.summary().budgets() : new int[0]) { // no budgets: not attacked
        AttackResult.Step best = a.at(b); // what the attack with budget b returned
        g.addBudgets(b).addAdversarial(a.adversarialAt(b))
            .addBestError(best == null ? 0 : Math.abs(best.prediction() - best.count()))
            .addPerturbed(best == null ? a.cleanGraph6() : best.graph6());
      }
      r.addOutcomes(g);
    }
    return r;
  }
}
