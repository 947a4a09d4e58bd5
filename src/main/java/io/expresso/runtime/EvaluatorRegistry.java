package io.expresso.runtime;

import com.google.protobuf.Message;
import io.expresso.engine.MemoryBudget;
import io.expresso.proto.v1.PairTask;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Evaluators by task kind; the first registered evaluator that {@linkplain Evaluator#accepts
 * accepts} a task runs it. Other packages add theirs with {@link #register} (e.g. GNN pair tasks,
 * train and attack tasks) before the worker starts.
 */
public final class EvaluatorRegistry implements AutoCloseable {

  private final Map<TaskKind, List<Evaluator<? extends Message>>> byKind = new EnumMap<>(TaskKind.class);
  private final List<AutoCloseable> resources = new CopyOnWriteArrayList<>();
  private volatile boolean faultsAllowed;
  private volatile KafkaClients kafka;
  private volatile MemoryBudget memoryBudget;
  private volatile boolean userModulesAllowed;
  private volatile Function<String, Optional<byte[]>> modules;

  public EvaluatorRegistry() {
    for (TaskKind k : TaskKind.values()) {
      byKind.put(k, new CopyOnWriteArrayList<>());
    }
  }

  /**
   * The registry with what this build can run: WL-family pair baselines, GNN pair tasks, synthetic tasks, and
   * every {@link EvaluatorProvider} found on the class path (ServiceLoader).
   */
  public static EvaluatorRegistry defaults() {
    EvaluatorRegistry r = new EvaluatorRegistry();
    r.register(TaskKind.PAIR, new BaselinePairEvaluator());
    r.register(TaskKind.PAIR, new GnnPairEvaluator(r::memoryBudget, r::userModule));
    r.register(TaskKind.SYNTHETIC, new SyntheticEvaluator(r::faultsAllowed));
    r.register(TaskKind.DATASET, new DatasetEvaluator());
    for (EvaluatorProvider p : providers()) {
      p.register(r);
    }
    return r;
  }

  /** The evaluator providers on the class path. */
  public static List<EvaluatorProvider> providers() {
    List<EvaluatorProvider> out = new ArrayList<>();
    ServiceLoader.load(EvaluatorProvider.class).forEach(out::add);
    return out;
  }

  /**
   * Lets synthetic tasks inject faults that take the worker down (crash, oom, hang): chaos testing
   * only, for a worker started with {@code --allow-faults}.
   */
  public EvaluatorRegistry allowFaults() {
    faultsAllowed = true;
    return this;
  }

  public boolean faultsAllowed() {
    return faultsAllowed;
  }

  /**
   * Lets pair tasks run users' TorchScript modules ({@code worker --allow-user-models}). A module
   * is code that runs with the worker's rights, so workers refuse them unless told otherwise.
   */
  public EvaluatorRegistry allowUserModules() {
    userModulesAllowed = true;
    return this;
  }

  public boolean userModulesAllowed() {
    return userModulesAllowed;
  }

  /**
   * Where users' modules are read from by key ({@code sha256:<hex>}): {@code expresso.models}, set
   * by the evaluator provider that owns that topic's store.
   */
  public EvaluatorRegistry useModuleLookup(Function<String, Optional<byte[]>> lookup) {
    this.modules = lookup;
    return this;
  }

  /**
   * The bytes of the user's module a task names ({@code sha256:<hex>}).
   *
   * @throws TaskFailure ({@code invalid-task}) when this worker does not run user modules, the
   *     task names a file instead of a stored module, or {@code expresso.models} has no such key
   */
  public byte[] userModule(String location) {
    if (!userModulesAllowed) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "the task names a TorchScript module (" + location + "), but this"
          + " worker does not run user modules: TorchScript is code; start the worker with --allow-user-models to run them");
    }
    if (!location.toLowerCase(java.util.Locale.ROOT).startsWith("sha256:")) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "the task names TorchScript module '" + location + "'; workers read"
          + " modules from " + Topics.MODELS + " by key sha256:<hex> (publish brec --model torchscript:FILE stores it)");
    }
    Function<String, Optional<byte[]>> m = modules;
    if (m == null) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, "no store of modules (" + Topics.MODELS + ") in this process");
    }
    return m.apply(location.toLowerCase(java.util.Locale.ROOT)).orElseThrow(() -> new TaskFailure(TaskFailure.INVALID_TASK,
        "TorchScript module " + location + " is not in " + Topics.MODELS + " (publish brec --model torchscript:FILE stores it)"));
  }

  /** The activation memory each device may use per pass ({@code worker --memory-budget}). */
  public EvaluatorRegistry useMemoryBudget(MemoryBudget budget) {
    this.memoryBudget = budget;
    return this;
  }

  /** The configured per-device memory budget; empty: each device takes its default. */
  public Optional<MemoryBudget> memoryBudget() {
    return Optional.ofNullable(memoryBudget);
  }

  /** The cluster of the worker these evaluators run in (the worker sets it when it starts). */
  public EvaluatorRegistry useKafka(KafkaClients clients) {
    this.kafka = clients;
    return this;
  }

  /**
   * How evaluators that keep their own Kafka clients (e.g. the checkpoint store on
   * {@code expresso.models}) reach the worker's cluster; empty outside a worker.
   */
  public Optional<KafkaClients> kafka() {
    return Optional.ofNullable(kafka);
  }

  /** Adds an evaluator for tasks of {@code kind} (tried after those registered earlier). */
  public <T extends Message> EvaluatorRegistry register(TaskKind kind, Evaluator<T> evaluator) {
    byKind.get(kind).add(evaluator);
    return this;
  }

  /**
   * Something an evaluator holds open (a Kafka client, loaded models) that must go with the worker:
   * a client left behind keeps retrying its broker, and in one JVM it was seen to upset the next
   * broker's producers.
   */
  public EvaluatorRegistry onClose(AutoCloseable resource) {
    resources.add(resource);
    return this;
  }

  /** Closes what the evaluators registered with {@link #onClose}, last first; the worker calls it when it stops. */
  @Override
  public void close() {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        org.slf4j.LoggerFactory.getLogger(EvaluatorRegistry.class).warn("cannot close {}: {}", resources.get(i), e.toString());
      }
    }
    resources.clear();
  }

  /** The evaluator for {@code task}, or a {@link TaskFailure} ({@code unknown-model}) naming the choices. */
  @SuppressWarnings("unchecked")
  public <T extends Message> Evaluator<T> find(TaskKind kind, T task) {
    for (Evaluator<? extends Message> e : byKind.get(kind)) {
      Evaluator<T> typed = (Evaluator<T>) e;
      if (typed.accepts(task)) {
        return typed;
      }
    }
    throw new TaskFailure(TaskFailure.UNKNOWN_MODEL, "no evaluator for " + kind.label() + " task"
        + describe(task) + "; this worker runs " + available(kind));
  }

  private static String describe(Message task) {
    return task instanceof PairTask p ? " with method/model '" + p.getMethod() + "'" : "";
  }

  private String available(TaskKind kind) {
    List<String> names = new ArrayList<>();
    for (Evaluator<? extends Message> e : byKind.get(kind)) {
      names.add(e.toString());
    }
    return names.isEmpty() ? "no " + kind.label() + " evaluator" : String.join(", ", names);
  }
}
