package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.training.initializer.NormalInitializer;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * KC-SetGNN (Zhao et al. 2022, "A Practical, Progressively-Expressive GNN") as BREC's
 * {@code KCSetGNN/test_BREC.py} builds it with {@code train/configs/BREC.yaml}: the (k,c)(≤) sets of k 3
 * and c 2 ({@link KcSets}), 2 GINEConv layers inside every connected set, 4 bipartite layers of the
 * Parallel kind, width 64, pools [add], no dropout, OUTPUT_DIM 16.
 *
 * <p>Each connected set's induced subgraph starts every node from the input row (BREC's constant
 * feature 1) and runs two GINE layers ({@code MLP((1+ε)h_i + Σ_j relu(h_j + e))}, e the layer's
 * linear map of the single edge-type row; batch norm, ReLU, residual), then Linear, BatchNorm, ReLU;
 * the set's state is its nodes' sum (zero for a set of two components), divided by its size, plus the
 * embeddings of its level and component count, then Linear, BatchNorm, ReLU. Each bipartite layer adds
 * to every set's state {@code nn_out([x, ↑, ↓, ↓↑])} of four half-width Linear, BatchNorm, ReLU maps:
 * its own state, the sum over its supersets one level up, the sum over its subsets of {@code nn1} of
 * theirs, and the sum over its subsets of {@code nn2} of their superset sums (a set without supersets or
 * subsets takes its own map there, as BREC's clones do). Per graph and level, the max and the
 * gated sum ({@code sigmoid(Linear([level, components] embeddings of 16)), starting at zero) of the
 * states, Linear, BatchNorm, ReLU; the levels side by side, then Linear, BatchNorm, ReLU, Linear to d.
 * Every MLP is the authors' (Linear without bias before a norm, non-affine BatchNorm that keeps the last
 * batch's statistics); Linear layers start as PyTorch's, embeddings N(0, 1) (the read-out's at zero).
 */
final class KcSetGnnBlock extends GraphBlock {

  /** {@code subgraph.kmax}: the largest set. */
  static final int K = 3;
  /** {@code subgraph.num_components}: the most components a set may have. */
  static final int C = 2;
  /** {@code model.num_inners}: GINE layers inside each connected set. */
  static final int INNER_LAYERS = 2;
  /** The read-out's level and component embeddings' width ({@code encoding_dim}). */
  static final int ENCODING = 16;

  private final ModelSpec spec;
  private final Parameter input;
  private final Parameter edge;
  private final Parameter[] eps = new Parameter[INNER_LAYERS];
  private final Block[] edgeLinears = new Block[INNER_LAYERS];
  private final Block[] convs = new Block[INNER_LAYERS];
  private final Block[] convNorms = new Block[INNER_LAYERS];
  private final Block subgraphOutput;
  private final Parameter levelTable;
  private final Parameter componentTable;
  private final Block setEncoder;
  private final List<Layer> layers = new ArrayList<>();
  private final Parameter gateLevel;
  private final Parameter gateComponents;
  private final Block gate;
  private final Block decoder0;
  private final Block decoder;

  /** One ParallelLayer, named as the authors'. */
  private record Layer(Block nn1, Block nn2, Block linear1, Block linear2, Block linear3, Block linear4, Block nnOut) {}

  KcSetGnnBlock(ModelSpec spec) {
    this.spec = spec;
    int h = spec.hidden();
    input = embedding("input_encoder", 1, h, new NormalInitializer(1f));
    edge = embedding("edge_encoder", 1, h, new NormalInitializer(1f));
    for (int l = 0; l < INNER_LAYERS; l++) {
      eps[l] = addParameter(Parameter.builder().setName("conv" + l + ".eps").setType(Parameter.Type.WEIGHT)
          .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build());
      edgeLinears[l] = addChildBlock("conv" + l + ".edge_linear", linear(h, h, true));
      // GINEConv's MLP(nin, nin, 2, with_final_activation=False, bias=False)
      convs[l] = addChildBlock("conv" + l + ".nn", new SequentialBlock()
          .add(linear(h, h, false)).add(norm()).add(Activation.reluBlock()).add(linear(h, h, false)));
      convNorms[l] = addChildBlock("conv" + l + ".norm", norm());
    }
    subgraphOutput = addChildBlock("subgraphs_conv.output_encoder", mlp(h, h, h, 1, true));
    levelTable = embedding("subgraph_encoder.num_nodes_encoder", K, h, new NormalInitializer(1f));
    componentTable = embedding("subgraph_encoder.num_components_encoder", C, h, new NormalInitializer(1f));
    setEncoder = addChildBlock("subgraph_encoder.out_encoder", mlp(h, h, h, 1, true));
    for (int l = 0; l < spec.layers(); l++) {
      String p = "bipartite" + l + ".";
      layers.add(new Layer(
          addChildBlock(p + "nn1", mlp(h, h, h, 2, true)),
          addChildBlock(p + "nn2", mlp(h, h, h, 2, true)),
          addChildBlock(p + "linear1", halfWidth(h)),
          addChildBlock(p + "linear2", halfWidth(h)),
          addChildBlock(p + "linear3", halfWidth(h)),
          addChildBlock(p + "linear4", halfWidth(h)),
          addChildBlock(p + "nn_out", mlp(2 * h, 2 * h, h, 2, true))));
    }
    gateLevel = embedding("num_nodes_encoder", K, ENCODING, Initializer.ZEROS);
    gateComponents = embedding("num_components_encoder", C, ENCODING, Initializer.ZEROS);
    gate = addChildBlock("kc_gate", new SequentialBlock().add(linear(h, 2 * ENCODING, false)).add(Activation::sigmoid));
    decoder0 = addChildBlock("output_decoder0", mlp(2 * h, 2 * h, h, 1, true));
    decoder = addChildBlock("output_decoder", mlp(K * h, h, spec.embedding(), 2, false));
  }

  private static Linear linear(int units, int fanIn, boolean bias) {
    Linear l = Linear.builder().setUnits(units).optBias(bias).build();
    PyTorchInit.linear(l, fanIn);
    return l;
  }

  /** The authors' BatchNorm1d(momentum=1.0, affine=False). */
  private BatchNorm norm() {
    return BatchNorm.builder().optCenter(false).optScale(false).optMomentum(spec.bnMomentum()).build();
  }

  /**
   * The authors' {@code MLP(nin, nout, nlayer, with_final_activation, n_hid)}: Linear, BatchNorm, ReLU per layer,
   * the Linear without bias; without the final activation the last layer is a bare Linear with bias.
   */
  private Block mlp(int in, int hid, int out, int nlayer, boolean finalActivation) {
    SequentialBlock b = new SequentialBlock();
    for (int i = 0; i < nlayer; i++) {
      boolean last = i == nlayer - 1;
      b.add(linear(last ? out : hid, i == 0 ? in : hid, last && !finalActivation));
      if (!last || finalActivation) {
        b.add(norm()).add(Activation.reluBlock());
      }
    }
    return b;
  }

  /** {@code nn.Sequential(nn.Linear(nhid, nhid // 2), BatchNorm1d(momentum=1.0, affine=False), ReLU)}. */
  private Block halfWidth(int h) {
    return new SequentialBlock().add(linear(h / 2, h, true)).add(norm()).add(Activation.reluBlock());
  }

  private Parameter embedding(String name, int rows, int width, Initializer init) {
    return addParameter(Parameter.builder().setName(name).setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(rows, width)).optInitializer(init).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // per bipartite layer about 34 width-wide float rows per set are kept for backward (nn1, nn2, the four
    // half-width maps, the concatenation, nn_out, the three sums, the residual); the GINE layers as other
    // message-passing networks' over the subgraph nodes (neighbours inside a set of three: at most 2)
    long[] sizes = KcSets.count(g, K, C);
    return 4L * sizes[0] * spec.hidden() * spec.layers() * 34
        + NodeTables.activationBytes(sizes[1], K - 1, spec.hidden(), INNER_LAYERS + 1);
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    KcSets sets = KcSets.of(batch.graphs(), K, C);
    NDList inputs = sets.toNDList(manager, C);
    // the layout: the prefix and suffix lengths, the per (graph, level) groups (level-major) for the max
    long[] layout = new long[3 + sets.groupStart().length];
    layout[0] = sets.left();
    layout[1] = sets.firstLevel();
    layout[2] = sets.graphs();
    for (int i = 0; i < sets.groupStart().length; i++) {
      layout[3 + i] = sets.groupStart()[i];
    }
    inputs.add(manager.create(layout));
    return inputs;
  }

  private static NDArray run(Block b, ParameterStore ps, NDArray x, boolean training) {
    return b.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray levelHot = inputs.get(0);
    NDArray componentHot = inputs.get(1);
    NDArray inverseSize = inputs.get(2);
    NDArray ones = inputs.get(3);
    NDArray inside = inputs.get(4);
    NDArray members = inputs.get(5);
    NDArray supersets = inputs.get(6);
    NDArray subsets = inputs.get(7);
    long[] layout = inputs.get(8).toLongArray();
    int left = (int) layout[0];
    int first = (int) layout[1];
    int graphs = (int) layout[2];
    int rows = (int) levelHot.getShape().get(0);

    // GraphToSubgraphs: GINE inside every connected set
    NDArray h = ones.matMul(PassValues.of(ps, input, ones, training));
    NDArray edgeRow = PassValues.of(ps, edge, ones, training); // the edge Linear's output then belongs to the pass
    NDArray previous = h;
    for (int l = 0; l < INNER_LAYERS; l++) {
      NDArray e = run(edgeLinears[l], ps, edgeRow, training);
      NDArray messages = inside.matMul(Activation.relu(h.add(e)));
      NDArray self = h.mul(PassValues.of(ps, eps[l], ones, training).add(1f));
      h = Activation.relu(run(convNorms[l], ps, run(convs[l], ps, self.add(messages), training), training));
      h = h.add(previous);
      previous = h;
    }
    h = run(subgraphOutput, ps, h, training);
    NDArray x = members.matMul(h).mul(inverseSize)
        .add(levelHot.matMul(PassValues.of(ps, levelTable, ones, training)))
        .add(componentHot.matMul(PassValues.of(ps, componentTable, ones, training)));
    x = run(setEncoder, ps, x, training);

    // BipartiteGNN, Parallel: each layer's output added to the states
    for (Layer l : layers) {
      x = x.add(parallel(l, ps, x, supersets, subsets, left, first, rows, training));
    }

    // read-out per graph and level: max and gated sum, then the levels side by side
    NDArray kc = levelHot.matMul(PassValues.of(ps, gateLevel, ones, training))
        .concat(componentHot.matMul(PassValues.of(ps, gateComponents, ones, training)), 1);
    NDArray gated = x.mul(run(gate, ps, kc, training));
    List<NDArray> groups = new ArrayList<>();
    for (int g = 0; g < graphs; g++) {
      for (int level = 0; level < K; level++) {
        int from = (int) layout[3 + level * graphs + g];
        int to = (int) layout[3 + level * graphs + g + 1];
        if (from == to) {
          // no set at this level (a graph of fewer than k vertices): torch_scatter leaves zeros
          groups.add(ones.getManager().zeros(new Shape(1, 2L * spec.hidden()), x.getDataType(), ones.getDevice()));
          continue;
        }
        NDIndex range = new NDIndex("{}:{}", from, to);
        groups.add(x.get(range).max(new int[] {0}, true).concat(gated.get(range).sum(new int[] {0}, true), 1));
      }
    }
    NDArray pooled = run(decoder0, ps, NDArrays.concat(new NDList(groups)), training);
    return decoder.forward(ps, new NDList(pooled.reshape(graphs, (long) K * spec.hidden())), training);
  }

  /** One ParallelLayer: the prefix rows have supersets, the suffix rows subsets. */
  private NDArray parallel(Layer l, ParameterStore ps, NDArray x, NDArray supersets, NDArray subsets, int left,
      int first, int rows, boolean training) {
    NDArray own = run(l.linear1(), ps, x, training);
    if (first == rows) {
      // no set above level 0 in the batch (graphs of one vertex): no bipartite edges, every set keeps its own map
      return run(l.nnOut(), ps, own.concat(own, 1).concat(own, 1).concat(own, 1), training);
    }
    NDArray up = supersets.matMul(x); // left × h
    NDArray down = subsets.matMul(run(l.nn1(), ps, x, training).get(new NDIndex(":{}", left)));
    NDArray upDown = subsets.matMul(run(l.nn2(), ps, up, training));
    NDArray upHalf = run(l.linear2(), ps, up, training).concat(own.get(new NDIndex("{}:", left)), 0);
    NDArray downHalf = own.get(new NDIndex(":{}", first)).concat(run(l.linear3(), ps, down, training), 0);
    NDArray upDownHalf = own.get(new NDIndex(":{}", first)).concat(run(l.linear4(), ps, upDown, training), 0);
    return run(l.nnOut(), ps, own.concat(upHalf, 1).concat(downHalf, 1).concat(upDownHalf, 1), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    for (int l = 0; l < INNER_LAYERS; l++) {
      edgeLinears[l].initialize(manager, dataType, new Shape(1, h));
      convs[l].initialize(manager, dataType, new Shape(1, h));
      convNorms[l].initialize(manager, dataType, new Shape(1, h));
    }
    subgraphOutput.initialize(manager, dataType, new Shape(1, h));
    setEncoder.initialize(manager, dataType, new Shape(1, h));
    for (Layer l : layers) {
      for (Block b : List.of(l.nn1(), l.nn2(), l.linear1(), l.linear2(), l.linear3(), l.linear4())) {
        b.initialize(manager, dataType, new Shape(1, h));
      }
      l.nnOut().initialize(manager, dataType, new Shape(1, 2 * h));
    }
    gate.initialize(manager, dataType, new Shape(1, 2 * ENCODING));
    decoder0.initialize(manager, dataType, new Shape(1, 2 * h));
    decoder.initialize(manager, dataType, new Shape(1, K * h));
  }
}
