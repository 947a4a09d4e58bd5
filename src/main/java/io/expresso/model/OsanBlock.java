package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.training.initializer.UniformInitializer;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.util.PairList;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * OSAN (Qian et al. 2022) as BREC's {@code OSAN/test_BREC_search.py} runs it
 * ({@code configs/brec/edge_del/del1_subgraph20_imle_*.yaml}): a scorer ({@link EdgeScorer}) gives
 * every directed edge {@link #SAMPLED} logits; each column's MAP state deletes one undirected edge
 * ({@link EdgeDeletion}); the {@link #SAMPLED} edge-deleted graphs and the full graph go through
 * BREC's {@code ogb_originalgin} network (OGB's GNN_node with {@code OriginalGINConv}: the
 * constant input's AtomEncoder row, per layer {@code BN(MLP((1 + ε)·h_v + Σ_u w_uv·h_u))} with
 * MLP Linear(h, 2h) → BN → ReLU → Linear(2h, h), ReLU but after the last), each subgraph
 * mean-pooled over its vertices, the subgraphs averaged, then Linear(h, d). A deleted edge is an
 * edge weight of 0, so batch norm sees every subgraph's rows, as in BREC's batch.
 *
 * <p>Training is I-MLE's perturb-and-MAP: Gumbel(0, 1) noise on the logits, drawn from the model's
 * seed ({@link #seedDraws}), picks the subgraphs; the weights w are then a leaf whose gradient dy
 * {@link #completeBackward} turns into the logits' gradient, {@code MAP(θ + ε) − MAP(θ − β·dy + ε)}
 * (β 10), as the authors' {@code imle} wrapper's backward does. The KL term that keeps the
 * subgraphs apart ({@code aux_loss_weight} 1) joins the loss ({@link #trainingLossTerm}). The
 * scorer has its own Adam (lr 1e-3, no weight decay, no schedule: {@link #optimizer}). Evaluation
 * takes the MAP state of the unperturbed logits, so embeddings are deterministic.
 */
final class OsanBlock extends GraphBlock {

  /** Subgraphs sampled per graph: {@code num_subgraphs: 20}; the full graph joins them ({@code add_full_graph}). */
  static final int SAMPLED = 20;
  /** I-MLE's target distribution: {@code beta: 10.} (alpha 1). */
  static final float BETA = 10f;
  /** The scorer's Adam: {@code embd_lr: 1.e-3}, {@code reg_embd: 0.}. */
  static final float SCORER_LEARNING_RATE = 1e-3f;
  /** The KL term's weight: {@code aux_loss_weight: 1.0}. */
  static final float AUX_LOSS_WEIGHT = 1f;
  /** The AtomEncoder's first table has 119 rows: xavier_uniform's bound over a 119 × width table. */
  private static final int ATOM_ROWS = 119;
  /** Keeps the noise apart from the weights' draws under the same seed. */
  private static final long NOISE_STREAM = 0x3C6EF372FE94F82BL;
  private static final int S = SAMPLED + 1;

  private final ModelSpec spec;
  private final EdgeScorer scorer;
  private final Block atom;
  private final List<Block> mlps = new ArrayList<>();
  private final List<Block> norms = new ArrayList<>();
  private final List<Parameter> eps = new ArrayList<>();
  private final Block output;
  private SplitMix64 noise = new SplitMix64(NOISE_STREAM);
  /** The last training forward's sample, for {@link #completeBackward}; null when none is pending. */
  private Sample pending;
  private NDArray auxLoss;

  private record Sample(EdgeDeletion edges, NDArray logits, float[] noise, float[] kept, NDArray weights) {}

  OsanBlock(ModelSpec spec) {
    this.spec = spec;
    int h = spec.hidden();
    scorer = addChildBlock("scorer", new EdgeScorer(h, SAMPLED, spec.bnMomentum()));
    atom = addChildBlock("atom", Linear.builder().setUnits(h).optBias(false).build());
    atom.setInitializer(new UniformInitializer((float) Math.sqrt(6.0 / (ATOM_ROWS + h))), Parameter.Type.WEIGHT);
    for (int l = 0; l < spec.layers(); l++) {
      Block mlp = addChildBlock("mlp" + l, new SequentialBlock()
          .add(Linear.builder().setUnits(2L * h).build())
          .add(BatchNorm.builder().optMomentum(spec.bnMomentum()).build())
          .add(Activation.reluBlock())
          .add(Linear.builder().setUnits(h).build()));
      PyTorchInit.linear(((SequentialBlock) mlp).getChildren().get(0).getValue(), h);
      PyTorchInit.linear(((SequentialBlock) mlp).getChildren().get(3).getValue(), 2 * h);
      mlps.add(mlp);
      norms.add(addChildBlock("bn" + l, BatchNorm.builder().optMomentum(spec.bnMomentum()).build()));
      eps.add(addParameter(Parameter.builder().setName("eps" + l).setType(Parameter.Type.OTHER)
          .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build()));
    }
    output = addChildBlock("output", Linear.builder().setUnits(spec.embedding()).build());
    PyTorchInit.linear(output, h);
  }

  @Override
  void seedDraws(long seed) {
    noise = new SplitMix64(seed ^ NOISE_STREAM);
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // 21 copies of the graph through the GIN, plus each copy's edge messages. Held to the estimate's h rows
    // (not the MLP's 2h, one of its ~16 stages): a split batch gives each pass its own batch-norm statistics,
    // and OSAN's noise makes relabelings' subgraphs differ, so a split is not exact as it is for other models
    return NodeTables.activationBytes((long) g.n() * S, g.maxDegree(), spec.hidden(), spec.layers())
        + 4L * 2 * g.m() * S * spec.hidden() * spec.layers();
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    NodeTables t = NodeTables.of(graphs);
    EdgeDeletion edges = EdgeDeletion.of(graphs);
    float[] invSqrtDegree = new float[t.nodes()];
    int[][] incoming = new int[t.nodes()][];
    int[] filled = new int[t.nodes()];
    for (int v = 0; v < t.nodes(); v++) {
      invSqrtDegree[v] = (float) (1 / Math.sqrt(t.neighbourRows()[v].length + 1.0));
      incoming[v] = new int[t.neighbourRows()[v].length];
    }
    for (int e = 0; e < edges.edges(); e++) {
      incoming[edges.dst()[e]][filled[edges.dst()[e]]++] = e;
    }
    float[] invCount = new float[graphs.size()];
    for (int b = 0; b < graphs.size(); b++) {
      invCount[b] = 1f / ((float) S * graphs.get(b).n());
    }
    return new NDList(t.neighbours(manager), manager.create(invSqrtDegree, new Shape(t.nodes(), 1)),
        longs(manager, edges.src()), longs(manager, edges.dst()), NodeTables.padded(manager, incoming, edges.edges()),
        t.pooling(manager), manager.create(invCount, new Shape(graphs.size(), 1)), longs(manager, edges.reverse()),
        longs(manager, edges.first()), longs(manager, edges.offset()));
  }

  private static NDArray longs(NDManager manager, int[] values) {
    long[] v = new long[values.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = values[i];
    }
    return manager.create(v, new Shape(v.length));
  }

  private static int[] ints(NDArray a) {
    long[] v = a.toLongArray();
    int[] out = new int[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = (int) v[i];
    }
    return out;
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray neighbours = inputs.get(0);
    NDArray src = inputs.get(2);
    NDArray incoming = inputs.get(4);
    NDArray pooling = inputs.get(5);
    NDManager manager = neighbours.getManager();
    long n = neighbours.getShape().get(0);
    int w = spec.hidden();
    EdgeDeletion edges = new EdgeDeletion(ints(src), ints(inputs.get(3)), ints(inputs.get(7)), ints(inputs.get(8)),
        ints(inputs.get(9)));
    int e = edges.edges();
    NDArray weights = null;
    if (e > 0) {
      NDArray logits = scorer.forward(ps, new NDList(neighbours, inputs.get(1), src, inputs.get(3)), training)
          .singletonOrThrow();
      float[] theta = logits.toFloatArray();
      float[] drawn = training ? gumbel(theta.length) : null;
      float[] kept = edges.keep(drawn == null ? theta : plus(theta, drawn, 1f, null), SAMPLED);
      weights = manager.create(withFullGraph(kept, e), new Shape(e, S));
      if (training) {
        weights.setRequiresGradient(true);
        pending = new Sample(edges, logits, drawn, kept, weights);
        auxLoss = klToUniform(manager, weights, edges);
      }
    }
    NDArray h = atom.forward(ps, new NDList(manager.ones(new Shape(n, 1))), training).singletonOrThrow()
        .reshape(n, 1, w).broadcast(new Shape(n, S, w)).reshape(n, (long) S * w);
    for (int l = 0; l < mlps.size(); l++) {
      NDArray self = h.mul(PassValues.of(ps, eps.get(l), h, training).add(1f));
      NDArray z = self;
      if (weights != null) {
        NDArray messages = EdgeScorer.rows(h, src).reshape(e, S, w).mul(weights.reshape(e, S, 1)).reshape(e, (long) S * w);
        z = self.add(Gather.sumRows(messages, incoming));
      }
      z = mlps.get(l).forward(ps, new NDList(z.reshape(n * S, w)), training).singletonOrThrow();
      z = norms.get(l).forward(ps, new NDList(z), training).singletonOrThrow();
      if (l + 1 < mlps.size()) {
        z = Activation.relu(z);
      }
      h = z.reshape(n, (long) S * w);
    }
    NDArray pooled = Gather.sumRows(h, pooling).reshape(-1, S, w).sum(new int[] {1}).mul(inputs.get(6));
    return output.forward(ps, new NDList(pooled), training);
  }

  /** The sampled columns' masks and the full graph's column of ones, E×(SAMPLED + 1). */
  private static float[] withFullGraph(float[] kept, int e) {
    float[] out = new float[e * S];
    for (int i = 0; i < e; i++) {
      System.arraycopy(kept, i * SAMPLED, out, i * S, SAMPLED);
      out[i * S + SAMPLED] = 1f;
    }
    return out;
  }

  /** {@code a + scale·b + c} elementwise (c may be null). */
  private static float[] plus(float[] a, float[] b, float scale, float[] c) {
    float[] out = new float[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] + scale * b[i] + (c == null ? 0f : c[i]);
    }
    return out;
  }

  /** Gumbel(0, 1) draws, {@code −log(−log U)}, U uniform in (0, 1). */
  private float[] gumbel(int count) {
    float[] out = new float[count];
    for (int i = 0; i < count; i++) {
      double u = ((noise.nextLong() >>> 11) + 0.5) * 0x1.0p-53;
      out[i] = (float) -Math.log(-Math.log(u));
    }
    return out;
  }

  /**
   * The authors' {@code get_aux_loss}: per graph, KL(uniform ‖ softmax over its directed edges of how
   * many sampled subgraphs keep each), batchmean over the edges, summed over the graphs.
   */
  private static NDArray klToUniform(NDManager manager, NDArray weights, EdgeDeletion edges) {
    List<int[]> rows = new ArrayList<>();
    List<Float> counts = new ArrayList<>();
    for (int b = 0; b + 1 < edges.first().length; b++) {
      int from = edges.first()[b];
      int to = edges.first()[b + 1];
      if (to > from) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) {
          r[i] = from + i;
        }
        rows.add(r);
        counts.add((float) r.length);
      }
    }
    float[] inv = new float[counts.size()];
    float[] logCount = new float[counts.size()];
    for (int i = 0; i < inv.length; i++) {
      inv[i] = 1f / counts.get(i);
      logCount[i] = (float) Math.log(counts.get(i));
    }
    NDArray table = NodeTables.padded(manager, rows.toArray(new int[0][]), edges.edges());
    NDArray s = weights.get(":, 0:" + SAMPLED).sum(new int[] {1}, true); // E×1
    NDArray invN = manager.create(inv, new Shape(inv.length, 1));
    NDArray logSumExp = Gather.sumRows(s.exp(), table).log();
    NDArray mean = Gather.sumRows(s, table).mul(invN);
    NDArray kl = logSumExp.sub(mean).sub(manager.create(logCount, new Shape(inv.length, 1))).mul(invN);
    return io.expresso.engine.Scalars.mul(kl.sum(), AUX_LOSS_WEIGHT);
  }

  @Override
  NDArray trainingLossTerm() {
    NDArray a = auxLoss;
    auxLoss = null;
    return a;
  }

  @Override
  void completeBackward(GradientCollector collector) {
    Sample s = pending;
    pending = null;
    if (s == null) {
      return;
    }
    float[] dy = s.weights().getGradient().toFloatArray();
    float[] theta = s.logits().toFloatArray();
    float[] target = new float[theta.length];
    for (int e = 0; e < s.edges().edges(); e++) {
      for (int c = 0; c < SAMPLED; c++) {
        int i = e * SAMPLED + c;
        target[i] = theta[i] - BETA * dy[e * S + c] + s.noise()[i];
      }
    }
    float[] targetKept = s.edges().keep(target, SAMPLED);
    float[] gradient = plus(s.kept(), targetKept, -1f, null);
    NDManager m = s.logits().getManager();
    try (NDArray g = m.create(gradient, s.logits().getShape())) {
      collector.backward(s.logits().mul(g).sum());
    }
  }

  @Override
  Optimizer optimizer(Optimizer main) {
    Set<String> ids = new HashSet<>();
    scorer.getParameters().forEach(p -> ids.add(p.getValue().getId()));
    Optimizer own = Optimizer.adam().optLearningRateTracker(Tracker.fixed(SCORER_LEARNING_RATE)).optWeightDecays(0f)
        .build();
    return new PerParameterOptimizer(main, own, ids);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    scorer.initialize(manager, dataType, new Shape(1, 1));
    atom.initialize(manager, dataType, new Shape(1, 1));
    for (int l = 0; l < mlps.size(); l++) {
      mlps.get(l).initialize(manager, dataType, new Shape(1, h));
      norms.get(l).initialize(manager, dataType, new Shape(1, h));
    }
    output.initialize(manager, dataType, new Shape(1, h));
  }
}
