package io.expresso.model;

import io.expresso.engine.NativeMemory;
import io.expresso.engine.Devices;
import io.expresso.engine.EngineSeeds;
import io.expresso.engine.PassThreads;
import io.expresso.engine.MemoryBudget;
import io.expresso.engine.MemoryBudgetException;
import ai.djl.Device;
import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;
import ai.djl.training.Trainer;
import ai.djl.training.TrainingConfig;
import ai.djl.util.Pair;
import io.expresso.graph.Graph;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A GNN built from a {@link NetworkSpec} (a built-in {@link ModelSpec} or a user's
 * {@link TorchScriptSpec}): a batch of graphs in, a B×d embedding ({@link Head#EMBEDDING}) out.
 * Owns a DJL {@link Model} (and so its native memory):
 * close it. Instances are not thread-safe; use one per thread, from any thread.
 */
public final class GraphModel implements AutoCloseable {

  /** Most graphs per inference pass, however small: bounds the input arrays built in Java. */
  private static final int MAX_INFERENCE_BATCH = 4096;
  /**
   * On a CPU, the most graphs and estimated activation bytes of one pass that still paid: embedding
   * BREC's 128 relabelings of a pair took (thread CPU time, PPGN 5 x 32) 164 ms in one pass of 128
   * 10-vertex graphs and 32 ms in passes of 64; for 58 vertices 20.5 s in passes of 128, 4.3 s in
   * passes of 32 (1.1 GiB estimated) and 1.1 s in passes of 16 (0.55 GiB), the least of any size.
   * Smaller passes are smaller working sets; memory is not at stake here (the budget is).
   */
  static final int CPU_PASS_GRAPHS = 64;
  /**
   * A training pass splits BREC's batch only beyond this estimate (graphs of more than 40 vertices
   * for PPGN 5 x 32): a split changes the batch norm's statistics, so it is kept for where the
   * whole batch is several times slower per graph.
   */
  static final long CPU_TRAINING_PASS_BYTES = 512L << 20;
  /**
   * Inference passes stop at half of that: no statistic depends on the pass, and per graph they
   * were fastest while one n×n×hidden tensor of the pass stays within about 4 MiB (thread CPU time,
   * 128 relabelings, PPGN 5 x 32, issue 30): 54 vertices 0.70 s in passes of 8, 1.1–2.1 s in passes
   * of 16–17; 74 vertices 1.2 s in passes of 2–8, 1.8–1.9 s in passes of 9; 29 vertices the same
   * 0.15–0.20 s from 2 to 32.
   */
  static final long CPU_INFERENCE_PASS_BYTES = 256L << 20;

  private static final int CHECKPOINT_VERSION = 1;

  private final NetworkSpec spec;
  private final Head head;
  private final Device device;
  private final Model model;
  private final GraphBlock block;
  private MemoryBudget budget;
  private int inferenceThreads = 1;

  private GraphModel(NetworkSpec spec, Head head, Device device, Model model, GraphBlock block) {
    this.spec = spec;
    this.head = head;
    this.device = device;
    this.model = model;
    this.block = block;
    this.budget = MemoryBudget.defaultFor(device);
  }

  /**
   * A freshly initialised model; the seed fixes every initial weight (a TorchScript module's
   * through its {@code reset_parameters()}, else its standard layers' PyTorch init, unless it
   * restarts from its saved weights: {@link #initialisation}). A built-in
   * spec with a parameter budget is first sized to it ({@link ParameterBudget}): {@link #spec} then
   * names the width chosen.
   *
   * @throws IllegalArgumentException when a TorchScript module does not fit (see {@link TorchScriptSpec})
   */
  public static GraphModel create(NetworkSpec spec, Head head, Device device, long seed) {
    if (spec instanceof TorchScriptSpec ts) {
      if (head != Head.EMBEDDING) {
        throw new IllegalArgumentException("a TorchScript module is used as an embedding model only, not as " + head);
      }
      Model model = Devices.newModel("expresso-torchscript", device);
      try {
        TorchScriptBlock block = TorchScriptBlock.load(ts, model.getNDManager(), seed);
        model.setBlock(block);
        block.initialize(model.getNDManager(), DataType.FLOAT32, new Shape(1));
        return new GraphModel(spec, head, device, model, block);
      } catch (RuntimeException e) {
        model.close();
        throw e;
      }
    }
    ModelSpec builtIn = (ModelSpec) spec;
    if (builtIn.budget() > 0) {
      builtIn = ParameterBudget.size(builtIn, head).spec();
    }
    GraphBlock block = builtIn.architecture().block(builtIn, Architecture.Role.PAIR_EMBEDDING);
    Model model = Devices.newModel("expresso-" + builtIn.architecture().cliName(), device);
    model.setBlock(block);
    // The engine's generator is global: seeding and drawing must not interleave between threads.
    EngineSeeds.seeded(seed, () -> block.initialize(model.getNDManager(), DataType.FLOAT32, new Shape(1)));
    block.seedDraws(seed);
    return new GraphModel(builtIn, head, device, model, block);
  }

  public NetworkSpec spec() {
    return spec;
  }

  /** Columns of {@link #embed}'s rows (the spec's d; a TorchScript module's, as its output showed). */
  public int embeddingWidth() {
    return block.outputSize();
  }

  /** Where the initial weights came from, in words (a TorchScript module's: what was drawn, what stayed as saved). */
  public String initialisation() {
    return block instanceof TorchScriptBlock ts ? ts.initialisation() : "the model's initialisers under the seed";
  }

  public Head head() {
    return head;
  }

  public Device device() {
    return device;
  }

  /** Limits the activation memory of every later pass (training steps and inference). */
  public void useMemoryBudget(MemoryBudget b) {
    this.budget = b;
  }

  public MemoryBudget memoryBudget() {
    return budget;
  }

  /**
   * Lets inference passes run side by side on up to {@code threads} threads, as far as the memory
   * budget holds that many passes at once (each pass keeps its size, so embeddings do not change).
   * For an evaluation that owns several cores: {@link #embed} is most of a short pair's time after
   * training, and its passes are independent. 1 (the default) runs them one after another.
   */
  public void useInferenceThreads(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("inference threads must be at least 1, got " + threads);
    }
    this.inferenceThreads = threads;
  }

  /** How many passes over {@code graphs} {@link #embed} runs at once. */
  public int inferencePassesAtOnce(List<Graph> graphs) {
    return passesAtOnce(graphs, graphsPerInferencePass(graphs));
  }

  /** {@link #inferencePassesAtOnce} for passes of {@code per} graphs. */
  private int passesAtOnce(List<Graph> graphs, int per) {
    if (block.drawsAtRandom()) {
      return 1; // the draws follow the graphs' order
    }
    int passes = (graphs.size() + per - 1) / per;
    long perPass = Math.max(1, per * bytesPerGraph(graphs, paddedSize(graphs)));
    long fit = Math.max(1, budget.bytes() / perPass);
    return (int) Math.max(1, Math.min(Math.min(inferenceThreads, passes), fit));
  }

  /**
   * How many graphs of {@code graphs} one training pass may hold under the budget: even (G/H
   * relabelings stay paired) and at most {@code graphs.size()} rounded up to even.
   *
   * @throws MemoryBudgetException if even two graphs do not fit
   */
  public int graphsPerTrainingPass(List<Graph> graphs) {
    int n = maxVertices(graphs);
    long perGraph = bytesPerGraph(graphs, paddedSize(graphs));
    long fit = budget.bytes() / Math.max(1, perGraph);
    if (fit < 2) {
      throw new MemoryBudgetException("a training pass over 2 graphs of " + n + " vertices needs about "
          + new MemoryBudget(Math.max(1L << 20, 2 * perGraph)).text() + " for " + spec.toText()
          + "; the memory budget is " + budget.text());
    }
    long pass = Math.max(2, Math.min(fit, fastestPass(perGraph, CPU_TRAINING_PASS_BYTES)));
    int batch = graphs.size() + (graphs.size() % 2);
    return (int) Math.min(batch, pass - (pass % 2));
  }

  /**
   * The least budget under which training on {@code training} and embedding {@code embedded} run
   * the very passes they run under any larger budget on this CPU: the same sizes (the fastest, or
   * two graphs where even those are more), and as many inference passes side by side as the
   * inference threads take. Under less, a training pass splits the batch, which changes the batch
   * norm's statistics and so the last bits of the result; this is what an evaluation leases from a
   * {@link MemoryPool}. On a GPU passes grow with the budget: the whole training batch in one pass
   * (the embedding passes then as large); more would not change the training, only hold back the
   * pairs beside it on the GPU.
   */
  public long budgetForFullPasses(List<Graph> training, List<Graph> embedded) {
    long trainingPerGraph = Math.max(1, bytesPerGraph(training, paddedSize(training)));
    int batch = training.size() + (training.size() % 2);
    if (device.isGpu()) {
      return saturatingProduct(Math.max(2, batch), trainingPerGraph);
    }
    long trainingPass = Math.min(Math.max(2, batch), Math.max(2, fastestPass(trainingPerGraph, CPU_TRAINING_PASS_BYTES)));
    long perGraph = Math.max(1, bytesPerGraph(embedded, paddedSize(embedded)));
    int per = inferencePassGraphs(embedded.size(), Math.max(1, fastestPass(perGraph, CPU_INFERENCE_PASS_BYTES)));
    int passes = (embedded.size() + per - 1) / per;
    long inference = (long) Math.min(inferenceThreads, passes) * per * perGraph;
    return Math.max(trainingPass * trainingPerGraph, inference);
  }

  private static long saturatingProduct(long a, long b) {
    return b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
  }

  /** How many graphs of {@code graphs} one inference pass holds under the budget (at least 1). */
  public int graphsPerInferencePass(List<Graph> graphs) {
    long perGraph = bytesPerGraph(graphs, paddedSize(graphs));
    long fit = Math.min(MAX_INFERENCE_BATCH, budget.bytes() / Math.max(1, perGraph));
    long most = Math.max(1, Math.min(fit, fastestPass(perGraph, CPU_INFERENCE_PASS_BYTES)));
    return inferencePassGraphs(graphs.size(), most);
  }

  /** Graphs per pass for {@code count} graphs in passes of equal size, at most {@code most} each: 128 at most 62 go as 43 + 43 + 42, not 62 + 62 + 4. */
  private static int inferencePassGraphs(int count, long most) {
    long passes = (count + most - 1) / most;
    return (int) Math.max(1, (count + passes - 1) / Math.max(1, passes));
  }

  /**
   * The most graphs a pass holds for speed, within any budget: on a CPU, passes beyond
   * {@link #CPU_PASS_GRAPHS} graphs or {@code cpuBytes} of estimated activations were slower per
   * graph, not faster (a GPU has no such limit).
   */
  private long fastestPass(long perGraph, long cpuBytes) {
    return device.isGpu() ? Long.MAX_VALUE : Math.min(CPU_PASS_GRAPHS, cpuBytes / Math.max(1, perGraph));
  }

  /** The largest per-graph estimate of the batch: the pass is sized for its most demanding graph. */
  private long bytesPerGraph(List<Graph> graphs, int maxVertices) {
    long most = 0;
    for (Graph g : graphs) {
      most = Math.max(most, block.bytesPerGraph(g, maxVertices));
    }
    return most;
  }

  private static int maxVertices(List<Graph> graphs) {
    int n = 1;
    for (Graph g : graphs) {
      n = Math.max(n, g.n());
    }
    return n;
  }

  /** The size the batch's dense tensors are padded to (see {@link GraphBlock#paddedSize}). */
  private int paddedSize(List<Graph> graphs) {
    int n = 1;
    for (Graph g : graphs) {
      n = Math.max(n, block.paddedSize(g));
    }
    return n;
  }

  /** The input tensors of a batch, on {@code manager} (for trainers). */
  public NDList encode(NDManager manager, List<Graph> graphs) {
    return encode(manager, graphs, null);
  }

  /**
   * The input tensors of a training batch whose positional-encoding columns are multiplied by
   * {@code peSigns} (one ±1 per column of {@link ModelSpec#pe}; null for none).
   */
  public NDList encode(NDManager manager, List<Graph> graphs, float[] peSigns) {
    return encode(manager, GraphBatch.of(graphs), peSigns);
  }

  /**
   * The input tensors of a batch that may carry node labels: a model whose spec reads them
   * ({@link NetworkSpec#nodeLabels}, GIN's {@code node-labels=K}) needs them, any other refuses them.
   *
   * @throws IllegalArgumentException for an empty batch, or labels where the spec reads none (and the reverse)
   */
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    if (batch.graphs().isEmpty()) {
      throw new IllegalArgumentException("empty batch of graphs");
    }
    checkNodeLabels(batch);
    return block.encode(manager, batch, peSigns);
  }

  private void checkNodeLabels(GraphBatch batch) {
    if (batch.hasNodeLabels() && spec.nodeLabels() == 0) {
      throw new IllegalArgumentException(spec.toText() + " reads no node labels (only gin does, with node-labels=K);"
          + " the batch carries them");
    }
    if (!batch.hasNodeLabels() && spec.nodeLabels() > 0) {
      throw new IllegalArgumentException(spec.toText() + " reads " + spec.nodeLabels()
          + " node labels as inputs; the batch carries none");
    }
  }

  /**
   * The optimizer of this model given the trainer's {@code main} one: {@code main} itself, or for a
   * model with a part trained by its own (OSAN's subgraph scorer), one that routes that part's
   * parameters to it.
   */
  public ai.djl.training.optimizer.Optimizer optimizer(ai.djl.training.optimizer.Optimizer main) {
    return block.optimizer(main);
  }

  /** A term the last training pass adds to the trainer's loss (OSAN's KL term), once; null for none. */
  public NDArray trainingLossTerm() {
    return block.trainingLossTerm();
  }

  /** After each training pass's backward, within its collector: completes a gradient autograd cannot take (OSAN's I-MLE). */
  public void completeBackward(ai.djl.training.GradientCollector collector) {
    block.completeBackward(collector);
  }

  /** A DJL trainer over this model's parameters (the caller closes it). */
  public Trainer newTrainer(TrainingConfig config) {
    return model.newTrainer(config);
  }

  /**
   * Embeddings in evaluation mode (batch norm uses running statistics, so the passes' split does
   * not matter), one row per graph, in as few passes as the memory budget allows.
   */
  public float[][] embed(List<Graph> graphs) {
    return embed(GraphBatch.of(graphs));
  }

  /** {@link #embed(List)} for a batch that may carry node labels (as {@link #encode(NDManager, GraphBatch, float[])}). */
  public float[][] embed(GraphBatch graphs) {
    checkNodeLabels(graphs);
    float[][] out = new float[graphs.size()][];
    int width = block.outputSize();
    forEachBatch(graphs, (from, values) -> {
      for (int i = 0; i * width < values.length; i++) {
        float[] row = new float[width];
        System.arraycopy(values, i * width, row, 0, width);
        out[from + i] = row;
      }
    });
    return out;
  }

  private interface BatchSink {
    void accept(int from, float[] values);
  }

  private void forEachBatch(GraphBatch graphs, BatchSink sink) {
    int per = graphsPerInferencePass(graphs.graphs());
    int passes = (graphs.size() + per - 1) / per;
    PassThreads.run(passes, passesAtOnce(graphs.graphs(), per), pass -> {
      int from = pass * per;
      GraphBatch batch = graphs.slice(from, Math.min(graphs.size(), from + per));
      try (NDManager sub = model.getNDManager().newSubManager()) {
        NDList in = encode(sub, batch, null);
        NDArray y = block.forward(new ParameterStore(sub, false), in, false).singletonOrThrow();
        sink.accept(from, y.toType(DataType.FLOAT32, false).toFloatArray());
      }
    });
  }

  /**
   * Clears the gradients that backward passes accumulated (a step that must not be applied). Filled
   * with zeros, not subtracted from themselves: NaN − NaN and ∞ − ∞ are NaN, and non-finite
   * gradients are what a skipped step most often leaves.
   */
  public void zeroGradients() {
    for (Pair<String, Parameter> p : block.getParameters()) {
      NDArray w = p.getValue().getArray();
      if (p.getValue().requiresGradient() && w.hasGradient()) {
        JniUtils.zeroGrad((PtNDArray) w);
      }
    }
  }

  /**
   * Arrays the model's manager holds now, its sub-managers' included: parameters, gradients,
   * optimizer state, and whatever a pass left there (none should: see {@link PassValues}).
   */
  int arraysHeld() {
    return (int) ((ai.djl.ndarray.BaseNDManager) model.getNDManager()).getManagedArrays().stream()
        .filter(a -> !a.isReleased()).count();
  }

  /** Number of trainable scalars. */
  public long parameterCount() {
    long total = 0;
    for (Pair<String, Parameter> p : block.getParameters()) {
      if (p.getValue().requiresGradient()) {
        total += p.getValue().getArray().size();
      }
    }
    return total;
  }

  /**
   * Writes a checkpoint: a header (format version, head, spec text) and DJL's parameter stream
   * (weights and batch-norm running statistics).
   */
  public void save(Path file) throws IOException {
    if (!(spec instanceof ModelSpec)) {
      throw new IOException(file + ": checkpoints hold built-in models; a TorchScript module is its own file");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream os = Files.newOutputStream(file);
        DataOutputStream out = new DataOutputStream(os)) {
      out.writeInt(CHECKPOINT_VERSION);
      out.writeUTF(head.name());
      out.writeUTF(spec.toText());
      block.saveParameters(out);
    }
  }

  /** Reads a checkpoint written by {@link #save}. */
  public static GraphModel load(Path file, Device device) throws IOException {
    try (InputStream is = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(is)) {
      int version = in.readInt();
      if (version != CHECKPOINT_VERSION) {
        throw new IOException(file + ": not an Expresso checkpoint (format " + version + ")");
      }
      Head head;
      ModelSpec spec;
      try {
        head = Head.valueOf(in.readUTF());
        spec = ModelSpec.parse(in.readUTF());
      } catch (IllegalArgumentException e) {
        throw new IOException(file + ": bad checkpoint header: " + e.getMessage(), e);
      }
      GraphModel m = create(spec, head, device, 0L);
      try {
        m.block.loadParameters(m.model.getNDManager(), in);
      } catch (ai.djl.MalformedModelException e) {
        m.close();
        throw new IOException(file + ": parameters do not match " + spec.toText() + ": " + e.getMessage(), e);
      }
      return m;
    }
  }

  /** Parameter names, for diagnostics. */
  public List<String> parameterNames() {
    List<String> names = new ArrayList<>();
    block.getParameters().forEach(p -> names.add(p.getKey()));
    return names;
  }

  /** The values of the parameter named {@code name} (a name of {@link #parameterNames}), for diagnostics. */
  public float[] parameterValues(String name) {
    for (Pair<String, Parameter> p : block.getParameters()) {
      if (p.getKey().equals(name)) {
        return p.getValue().getArray().toFloatArray();
      }
    }
    throw new IllegalArgumentException("no parameter '" + name + "' in " + spec.toText() + "; have " + parameterNames());
  }

  @Override
  public void close() {
    model.close();
    NativeMemory.releaseIfGrown();
  }

  @Override
  public String toString() {
    return "GraphModel[" + spec.toText() + ", " + head + ", " + Devices.name(device) + "]";
  }
}
