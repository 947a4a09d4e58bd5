package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * DropGNN (Papp et al. 2021) as BREC's {@code DropGNN/test_BREC.py} builds it with
 * {@code --augmentation dropout}: {@link #RUNS} copies of every graph, in each copy every vertex
 * dropped with probability p = 2/(1 + n) (its constant input set to 0; it still passes messages, as
 * in the authors' code), a GIN-0 over all copies at once, and per read-out the copies' mean of each
 * vertex's state, sum-pooled: the input's read-out and one per layer (11 for 10 layers), summed.
 * A layer is {@code GINConv(Linear → BN → ReLU → Linear)} then BN and ReLU; batch norm sees every
 * copy's rows; linear layers start as PyTorch's.
 *
 * <p>The dropped vertices are drawn in {@link #encode} from the model's seed ({@link #seedDraws}),
 * in training and in evaluation alike, since BREC's forward draws them whether or not the model
 * trains; two embeddings of one graph therefore differ, which is why its script judges at T² 5.
 * The draws follow the graphs' order, so the model runs its passes one after another
 * ({@link #drawsAtRandom}).
 *
 * <p>Inputs: the copies' input column (N·R)×1, row {@code v·R + r} vertex v in copy r; the
 * neighbour table N×maxDeg and the pooling table B×nMax of one copy (padding = N): messages and
 * read-outs gather the R copies of a row at once, as R·width columns.
 */
final class DropGnnBlock extends GraphBlock {

  /** Copies per graph: {@code test_BREC_search.py --num_runs=100}. */
  static final int RUNS = 100;
  /** Keeps the drops apart from the weights' draws under the same seed. */
  private static final long DRAW_STREAM = 0x6A09E667F3BCC909L;

  private final ModelSpec spec;
  private final List<Block> convs = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();
  private SplitMix64 draws = new SplitMix64(DRAW_STREAM);

  DropGnnBlock(ModelSpec spec) {
    this.spec = spec;
    Block inputReadout = addChildBlock("readout-input", Linear.builder().setUnits(spec.embedding()).build());
    PyTorchInit.linear(inputReadout, 1);
    readouts.add(inputReadout);
    for (int l = 0; l < spec.layers(); l++) {
      // GINConv's MLP (Linear, BN, ReLU, Linear) and the BN after it: the ReLU follows in forwardInternal
      Block conv = addChildBlock("conv" + l, Mlp.ginThenNorm(spec.hidden(), spec.bnMomentum()));
      PyTorchInit.linears(conv, l == 0 ? 1 : spec.hidden(), spec.hidden());
      convs.add(conv);
      Block readout = addChildBlock("readout" + l, Linear.builder().setUnits(spec.embedding()).build());
      PyTorchInit.linear(readout, spec.hidden());
      readouts.add(readout);
    }
  }

  /** The drop probability for a graph of {@code n} vertices: BREC's p_opt = 2/(1 + γ), γ = n. */
  static double dropProbability(int n) {
    return 2.0 / (1 + n);
  }

  @Override
  void seedDraws(long seed) {
    draws = new SplitMix64(seed ^ DRAW_STREAM);
  }

  @Override
  boolean drawsAtRandom() {
    return true;
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    return NodeTables.activationBytes((long) g.n() * RUNS, g.maxDegree(), spec.hidden(), spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    NodeTables t = NodeTables.of(batch.graphs());
    float[] x = new float[t.nodes() * RUNS];
    int row = 0;
    for (Graph g : batch.graphs()) {
      double p = dropProbability(g.n());
      for (int i = 0; i < g.n() * RUNS; i++) {
        x[row++] = draws.nextDouble() < p ? 0f : 1f;
      }
    }
    return new NDList(manager.create(x, new Shape((long) t.nodes() * RUNS, 1)), t.neighbours(manager),
        t.pooling(manager));
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    NDArray neighbours = inputs.get(1);
    NDArray pooling = inputs.get(2);
    long n = neighbours.getShape().get(0);
    NDArray out = readout(ps, 0, h, n, pooling, training);
    for (int l = 0; l < convs.size(); l++) {
      long width = h.getShape().get(1);
      // GIN-0: each copy's own state plus its neighbours' in the same copy
      NDArray messages = Gather.sumRows(h.reshape(n, RUNS * width), neighbours).reshape(n * RUNS, width);
      h = Activation.relu(convs.get(l).forward(ps, new NDList(h.add(messages)), training).singletonOrThrow());
      out = out.add(readout(ps, l + 1, h, n, pooling, training));
    }
    return new NDList(out);
  }

  /** Read-out {@code k}: each vertex's mean over the copies, sum-pooled per graph, then its linear map. */
  private NDArray readout(ParameterStore ps, int k, NDArray h, long n, NDArray pooling, boolean training) {
    NDArray mean = h.reshape(n, RUNS, h.getShape().get(1)).mean(new int[] {1});
    return readouts.get(k).forward(ps, new NDList(Gather.sumRows(mean, pooling)), training).singletonOrThrow();
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    readouts.get(0).initialize(manager, dataType, new Shape(1, 1));
    for (int l = 0; l < convs.size(); l++) {
      convs.get(l).initialize(manager, dataType, new Shape(1, l == 0 ? 1 : spec.hidden()));
      readouts.get(l + 1).initialize(manager, dataType, new Shape(1, spec.hidden()));
    }
  }
}
