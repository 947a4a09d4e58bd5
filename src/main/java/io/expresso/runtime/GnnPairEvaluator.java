package io.expresso.runtime;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import io.expresso.model.Architecture;
import io.expresso.model.ModelSpec;
import io.expresso.model.NetworkSpec;
import io.expresso.model.TorchScriptSpec;
import io.expresso.engine.MemoryBudget;
import io.expresso.engine.MemoryBudgetException;
import io.expresso.engine.MemorySource;
import io.expresso.engine.DeviceOutOfMemory;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.stats.Convention;
import io.expresso.stats.ThresholdRule;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Relabelings;
import io.expresso.train.EvaluationSettings;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluationException;
import io.expresso.train.PairEvaluator;
import io.expresso.train.PlateauSchedule;
import io.expresso.train.TrainingSettings;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Pair tasks under a GNN model spec ({@code gin}, {@code ppgn:layers=3,...}, {@code ngnn-de}, or a
 * user's TorchScript module {@code torchscript:sha256:<hex>,...} read from {@code expresso.models}
 * where the worker allows user modules):
 * trains a fresh siamese model on the task's device and judges with RPC or RAPC, via {@link
 * PairEvaluator}. Task settings left at zero take the architecture's BREC defaults; the result
 * records the settings used. A set
 * cancellation token ends training at the next batch with a {@link
 * java.util.concurrent.CancellationException}, the model closed.
 */
public final class GnnPairEvaluator implements Evaluator<PairTask> {

  private final Supplier<Optional<MemoryBudget>> budget;
  private final TorchScriptSpec.ModuleSource modules;

  /**
   * @param budget the worker's per-evaluation memory budget; empty: the pool of the device's memory
   *     (half of a GPU's, shared by its slots; half of the machine's, shared by the CPU devices) from
   *     which each pair leases what its passes need to run as they would alone (see {@link
   *     io.expresso.engine.MemoryPool}); a pair that runs out of a GPU's memory is rerun alone on it
   * @param modules users' TorchScript modules by key ({@link EvaluatorRegistry#userModule}), which
   *     throws a {@link TaskFailure} where they are not allowed
   */
  public GnnPairEvaluator(Supplier<Optional<MemoryBudget>> budget, TorchScriptSpec.ModuleSource modules) {
    this.budget = budget;
    this.modules = modules;
  }

  @Override
  public boolean accepts(PairTask task) {
    String m = task.getMethod();
    if (NetworkSpec.isTorchScript(m)) {
      return true;
    }
    int colon = m.indexOf(':');
    try {
      Architecture.byName(colon < 0 ? m : m.substring(0, colon));
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public Result.Builder evaluate(PairTask task, DeviceSlot device, java.util.function.BooleanSupplier cancelled) {
    NetworkSpec spec;
    EvaluationSettings settings;
    try {
      spec = NetworkSpec.parse(task.getMethod(), modules);
      settings = settings(task, spec);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "model '" + task.getMethod() + "': " + e.getMessage(), e);
    }
    GraphPair pair = new GraphPair(task.getPairIndex(), task.getCategory(),
        BaselinePairEvaluator.decode(task.getGraphFirst(), "graph_first", task),
        BaselinePairEvaluator.decode(task.getGraphSecond(), "graph_second", task), relabelings(task));
    ai.djl.Device djl = device.djl();
    PairEvaluation e;
    try {
      MemorySource memory = MemorySource.forDevice(djl, budget.get().orElse(null));
      e = PairEvaluator.evaluate(pair, spec, settings, task.getSeed(), djl, memory, 1, cancelled);
    } catch (IllegalArgumentException x) {
      // a TorchScript module that does not fit: its signature, output or values
      throw new TaskFailure(TaskFailure.INVALID_TASK, "model '" + spec.toText() + "': " + x.getMessage(), x);
    } catch (PairEvaluationException x) {
      throw new TaskFailure(x.getCause() instanceof MemoryBudgetException ? TaskFailure.OVER_LIMIT
          : DeviceOutOfMemory.causedBy(x) ? TaskFailure.OUT_OF_MEMORY : TaskFailure.NAN, x.getMessage(), x);
    }
    return Result.newBuilder().setPair(PairIdentity.of(task, spec.toText())
        .setDistinguished(e.distinguished())
        .setReliable(e.reliable())
        .setT2Test(e.judgement().t2Test())
        .setT2Reliability(e.judgement().t2Reliability())
        .setThreshold(e.judgement().threshold())
        .setEpochs(e.training().epochs())
        .setFinalLoss(e.training().finalLoss())
        .setTrainingGraphsPerPass(e.memory().trainingGraphsPerPass())
        .setPeakRssBytes(e.memory().peakRssBytes())
        .setMemoryBudgetBytes(e.memory().budgetBytes())
        .setExact(false)
        .setTraining(recorded(settings.training()))
        .setRpc(recorded(settings))
        .setRapcGroups(settings.rapcGroups())
        .setRelabelingsGiven(pair.relabelings() != null));
  }

  /**
   * The pair under the model spec as a success names it (the full spec; a spec that does not parse,
   * or a module that cannot be read, as the task wrote it): what an error result of the task keeps.
   */
  @Override
  public Result.Builder identity(PairTask task) {
    String method;
    try {
      method = NetworkSpec.parse(task.getMethod(), modules).toText();
    } catch (RuntimeException e) { // a bad spec, a module refused or missing: the task's failure says which
      method = task.getMethod();
    }
    return Result.newBuilder().setPair(PairIdentity.of(task, method));
  }

  /**
   * BREC's defaults for the architecture, overridden by whatever the task sets (non-zero,
   * non-empty): every field of the task's {@code training} and {@code rpc}.
   *
   * @throws IllegalArgumentException naming a bad value (threshold mode, convention, α, q)
   */
  static EvaluationSettings settings(PairTask task, NetworkSpec spec) {
    TrainingSettings t = TrainingSettings.defaults(spec);
    io.expresso.proto.v1.TrainingSettings ts = task.getTraining();
    t = ts.getEpochs() > 0 ? t.withEpochs(ts.getEpochs()) : t;
    t = ts.getLearningRate() > 0 ? t.withLearningRate((float) ts.getLearningRate()) : t;
    t = ts.getBatchSize() > 0 ? t.withBatchSize(ts.getBatchSize()) : t;
    t = ts.getWeightDecay() > 0 ? t.withWeightDecay((float) ts.getWeightDecay()) : t;
    t = ts.getLossThreshold() > 0 ? t.withLossThreshold(ts.getLossThreshold()) : t;
    t = ts.getSchedule().isEmpty() ? t : t.withSchedule(PlateauSchedule.Settings.parse(ts.getSchedule()));
    RpcSettings rpc = task.getRpc();
    t = rpc.getQ() > 0 ? t.withQ(rpc.getQ()) : t;
    EvaluationSettings s = EvaluationSettings.defaults(spec).withTraining(t);
    double alpha = rpc.getAlpha() != 0 ? rpc.getAlpha() : s.alpha();
    String mode = rpc.getThresholdMode().isEmpty() ? s.threshold().id() : rpc.getThresholdMode();
    s = s.withThreshold(ThresholdRule.of(mode, alpha));
    s = rpc.getConvention().isEmpty() ? s : s.withConvention(Convention.parse(rpc.getConvention()));
    if (spec instanceof ModelSpec builtIn) {
      s.threshold().check(t.q(), builtIn.embedding()); // a module's d is checked once it is loaded
    }
    return s;
  }

  /** The training settings used, as the result records them. */
  private static io.expresso.proto.v1.TrainingSettings recorded(TrainingSettings t) {
    return io.expresso.proto.v1.TrainingSettings.newBuilder().setEpochs(t.epochs()).setLearningRate(asWritten(t.learningRate()))
        .setBatchSize(t.batchSize()).setWeightDecay(asWritten(t.weightDecay())).setLossThreshold(t.lossThreshold())
        .setSchedule(t.schedule().text()).build();
  }

  /** A float setting as the double it was written as (1e-4f reads 1.0E-4, not 9.99999974737875E-5). */
  private static double asWritten(float f) {
    return Double.parseDouble(Float.toString(f));
  }

  /** The test settings used, as the result records them. */
  private static RpcSettings recorded(EvaluationSettings s) {
    return RpcSettings.newBuilder().setQ(s.training().q()).setAlpha(s.alpha()).setThresholdMode(s.threshold().id())
        .setConvention(s.convention().id()).build();
  }

  /** The relabelings the task ships (BREC layout), or null to let the evaluator draw them. */
  private static Relabelings relabelings(PairTask task) {
    if (!task.hasRelabelings() || task.getRelabelings().getFirstCount() == 0) {
      return null;
    }
    io.expresso.proto.v1.Relabelings r = task.getRelabelings();
    return new Relabelings(decode(r.getFirstList(), task), decode(r.getSecondList(), task),
        decode(r.getReliabilityFirstList(), task), decode(r.getReliabilitySecondList(), task));
  }

  private static List<Graph> decode(List<String> graphs, PairTask task) {
    try {
      return graphs.stream().map(Graph6::decode).toList();
    } catch (GraphFormatException e) {
      throw new TaskFailure(TaskFailure.INVALID_GRAPH6, "relabelings of pair " + task.getPairIndex() + " (task "
          + task.getHeader().getTaskId() + "): " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "GNN models " + java.util.Arrays.stream(io.expresso.model.Architecture.values())
        .map(io.expresso.model.Architecture::cliName).collect(java.util.stream.Collectors.joining("/"))
        + " and TorchScript modules (where allowed)";
  }
}
