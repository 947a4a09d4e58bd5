package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.ConstantInitializer;
import ai.djl.training.initializer.NormalInitializer;
import ai.djl.training.initializer.UniformInitializer;
import ai.djl.util.PairList;
import io.expresso.engine.Scalars;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The I²-GNN network of Huang et al. (ICLR 2023) as Campi et al. train it for counting
 * ({@code src/I2GNN/I2GNN.py} of Rob-Subgraphs, the {@code count_models.py} of GraphPKU/I2GNN),
 * up to the per-graph state (B, d); {@link I2Gnn} adds the count head.
 *
 * <p>Per root i and neighbour j of i one subgraph: i's {@code hops}-ball (induced edges), every
 * node labelled by an integer (Campi's {@code create_subgraphs2} with its default {@code 'hop'}
 * labels: 1 the root, 2 the neighbour, 0 the rest); a root without neighbours gets one subgraph
 * of itself alone, labelled 1, as theirs does. Layer l embeds the labels with its own
 * {@code Embedding(100, d)}; layer 0 starts from that embedding, every later layer concatenates
 * its input with it and maps 2d → d by a Linear (the labels re-injected), then runs the conv:
 * {@code gated} is PyG's {@code GatedGraphConv(d, 1)} (m = Σ_{u∈N(v)} W h_u, then a GRU cell
 * h' = GRU(m, h)), {@code gin} a GIN update MLP(h + Σ h_u) (Linear, ReLU, Linear, ReLU). Node
 * states are summed per subgraph, then an MLP (Linear, ReLU, Linear); summed over j per root, an
 * MLP; summed over i per graph.
 *
 * <p>Theirs registers {@code transform_before_conv[0]} (2d → d) and never calls it: it is left out
 * here (at 64 × 5: 229,569 trainable parameters, theirs 237,825; it has no gradient, Adam never
 * moves it). Each embedding holds 100 rows of which the labels use 3, as theirs. Initialisation as
 * PyTorch's: embeddings N(0, 1); Linear, GRU and the conv weight uniform in ±1/√fan-in (d).
 *
 * <p>BREC's pair-distinction I²-GNN ({@code I2GNN/count_models.py} of GraphPKU/BREC, built by
 * {@link I2GnnBlock}) is a setting of this network: width 32, {@code spd} labels (four label
 * embeddings summed per node, see {@link Labels#SPD}), gated convs, and {@code norm}: an affine
 * batch norm after every conv (its {@code bns}), statistics over the real subgraph nodes.
 *
 * <p>Node states are packed, one row per node of every subgraph (T rows for P subgraphs, no
 * padding; as their PyG batch): one message-passing step is a sparse matmul (T×T)·(T×d) over the
 * subgraphs' block-diagonal adjacency. Inputs ({@link #inputs}, built by {@link SubgraphTables}):
 * adjacency (T, T) sparse, label one-hots (T, K), and the sparse sum matrices node-to-subgraph
 * (P, T), subgraph-to-root (R, P) and root-to-graph (B, R).
 */
final class I2GnnNetwork extends AbstractBlock {

  private static final byte VERSION = 1;
  /** Rows of each label embedding, as theirs ({@code torch.nn.Embedding(100, 64)}). */
  static final int EMBEDDING_ROWS = 100;

  /** The per-layer update. */
  enum Conv { GATED, GIN }

  /** How subgraph nodes are labelled before embedding. */
  enum Labels {
    /** Campi's default ({@code node_label='hop'}): root 1, marked neighbour 2, others 0. */
    HOP,
    /**
     * BREC's ({@code node_label='spd'}, its utils.py): four labels per node whose embeddings are
     * summed, d_i + 1 and 0 (k_hop_subgraph keeps one distance per node), d_j + 1 + h + 3 and h + 3
     * (find_all_spd in the ball, shifted "such that it uses different distance embedding"); a
     * root without neighbours: 1, 0, 1, 0.
     */
    SPD;

    /** Distinct label values a subgraph uses (the embedding rows read; SPD: 0 … 2h + 5). */
    int distinct(int hops) {
      return this == HOP ? 3 : 2 * hops + 6;
    }
  }

  /**
   * The options of the network.
   *
   * @param hidden width d of every layer (theirs: 64, fixed)
   * @param layers conv layers (theirs: {@code num_layers}, 5)
   * @param hops radius of the rooted subgraphs (theirs: the pattern's, {@code hops} in GNN_train.py)
   * @param conv the update ({@code gated}: theirs)
   * @param labels the node labels ({@code hop}: theirs)
   * @param norm an affine batch norm over the subgraph nodes after every conv (BREC's {@code bns})
   * @param normMomentum its running statistics' momentum in DJL's convention, the old value's weight
   *     (BREC's PyTorch default 0.1 is 0.9 here)
   */
  record Options(int hidden, int layers, int hops, Conv conv, Labels labels, boolean norm, float normMomentum) {
    /** Without batch norm (the counting network's). */
    Options(int hidden, int layers, int hops, Conv conv, Labels labels) {
      this(hidden, layers, hops, conv, labels, false, 0.9f);
    }

    Options {
      if (hidden < 1 || layers < 1 || hops < 1) {
        throw new IllegalArgumentException("I2-GNN needs hidden, layers and hops >= 1, got " + hidden + ", " + layers
            + ", " + hops);
      }
    }

    String convName() {
      return conv.name().toLowerCase(Locale.ROOT);
    }

    String labelsName() {
      return labels.name().toLowerCase(Locale.ROOT);
    }
  }

  private final Options options;
  private final List<Parameter> embeddings = new ArrayList<>();
  private final List<Block> transforms = new ArrayList<>(); // index l-1 for layer l
  private final List<Block> messages = new ArrayList<>();    // gated: W of GatedGraphConv
  private final List<Block> inputGates = new ArrayList<>();  // gated: GRU weight_ih, bias_ih
  private final List<Block> hiddenGates = new ArrayList<>(); // gated: GRU weight_hh, bias_hh
  private final List<Block> ginMlps = new ArrayList<>();     // gin
  private final List<Parameter[]> norms = new ArrayList<>(); // norm: gamma, beta, running mean, running variance
  private final Block pairMlp;
  private final Block rootMlp;

  I2GnnNetwork(Options options) {
    super(VERSION);
    this.options = options;
    int d = options.hidden();
    for (int l = 0; l < options.layers(); l++) {
      int rows = options.labels() == Labels.HOP ? EMBEDDING_ROWS : options.labels().distinct(options.hops());
      embeddings.add(addParameter(Parameter.builder().setName("embedding" + l).setType(Parameter.Type.WEIGHT)
          .optShape(new Shape(rows, d)).optInitializer(new NormalInitializer(1f)).build()));
      if (l > 0) {
        transforms.add(addChildBlock("transform" + l, torchLinear(d, 2 * d, true)));
      }
      if (options.conv() == Conv.GATED) {
        Block w = addChildBlock("message" + l, Linear.builder().setUnits(d).optBias(false).build());
        // PyG's GatedGraphConv.reset_parameters: uniform(out_channels, weight), bound 1/sqrt(d)
        w.setInitializer(new UniformInitializer((float) (1 / Math.sqrt(d))), Parameter.Type.WEIGHT);
        messages.add(w);
        inputGates.add(addChildBlock("gateIn" + l, torchLinear(3 * d, d, true)));
        hiddenGates.add(addChildBlock("gateHidden" + l, torchLinear(3 * d, d, true)));
      } else {
        SequentialBlock mlp = new SequentialBlock()
            .add(Linear.builder().setUnits(d).build()).add(Activation::relu)
            .add(Linear.builder().setUnits(d).build()).add(Activation::relu);
        PyTorchInit.linears(mlp, d, d);
        ginMlps.add(addChildBlock("gin" + l, mlp));
      }
    }
    if (options.norm()) {
      for (int l = 0; l < options.layers(); l++) {
        norms.add(new Parameter[] {
            addParameter(Parameter.builder().setName("normGamma" + l).setType(Parameter.Type.GAMMA)
                .optShape(new Shape(d)).optInitializer(new ConstantInitializer(1f)).build()),
            addParameter(Parameter.builder().setName("normBeta" + l).setType(Parameter.Type.BETA)
                .optShape(new Shape(d)).optInitializer(new ConstantInitializer(0f)).build()),
            addParameter(Parameter.builder().setName("normMean" + l).setType(Parameter.Type.RUNNING_MEAN)
                .optShape(new Shape(d)).optRequiresGrad(false).optInitializer(new ConstantInitializer(0f)).build()),
            addParameter(Parameter.builder().setName("normVar" + l).setType(Parameter.Type.RUNNING_VAR)
                .optShape(new Shape(d)).optRequiresGrad(false).optInitializer(new ConstantInitializer(1f)).build())});
      }
    }
    pairMlp = addChildBlock("pairMlp", poolingMlp(d));
    rootMlp = addChildBlock("rootMlp", poolingMlp(d));
  }

  /** Linear, ReLU, Linear (theirs: {@code edge_pooling_nn}, {@code node_pooling_nn}). */
  private static Block poolingMlp(int d) {
    SequentialBlock mlp = new SequentialBlock()
        .add(Linear.builder().setUnits(d).build()).add(Activation::relu)
        .add(Linear.builder().setUnits(d).build());
    PyTorchInit.linears(mlp, d, d);
    return mlp;
  }

  /** A Linear with {@code nn.Linear}'s initialisation. */
  static Block torchLinear(int units, int fanIn, boolean bias) {
    Block linear = Linear.builder().setUnits(units).optBias(bias).build();
    PyTorchInit.linear(linear, fanIn);
    return linear;
  }

  Options options() {
    return options;
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList in, boolean training,
      PairList<String, Object> params) {
    NDArray adj = in.get(0);         // (T, T) sparse
    NDArray labels = in.get(1);      // (T, K)
    NDArray nodeToPair = in.get(2);  // (P, T) sparse
    NDArray pairToRoot = in.get(3);  // (R, P) sparse
    NDArray rootToGraph = in.get(4); // (B, R) sparse
    long k = labels.getShape().get(1);
    NDArray h = null;
    for (int l = 0; l < options.layers(); l++) {
      NDArray table = PassValues.of(ps, embeddings.get(l), labels, training).get(new NDIndex("0:" + k)); // rows read
      h = l == 0 ? labels.matMul(table) : reinject(ps, transforms.get(l - 1), h, labels, table, training);
      h = conv(ps, l, adj, h, training);
      if (options.norm()) {
        h = norm(ps, norms.get(l), h, training, 1 - options.normMomentum());
      }
    }
    NDArray perPair = forward1(pairMlp, ps, nodeToPair.matMul(h), training);                 // (P, d)
    NDArray perRoot = forward1(rootMlp, ps, pairToRoot.matMul(perPair), training);           // (R, d)
    return new NDList(rootToGraph.matMul(perRoot));                                          // (B, d)
  }

  /**
   * The layer's Linear(2d → d) on [h, z], z = labels · table each node's label embedding, computed as
   * h·W_hᵀ + b + labels · (table · W_zᵀ): the same sum, but the label half of the weight meets the
   * K embedding rows instead of every node's row (a d × d product per node fewer, forward and back).
   */
  static NDArray reinject(ParameterStore ps, Block transform, NDArray h, NDArray labels, NDArray table,
      boolean training) {
    long d = h.getShape().get(1);
    NDArray weight = PassValues.of(ps, transform.getParameters().get("weight"), h, training); // (d, 2d)
    NDArray bias = PassValues.of(ps, transform.getParameters().get("bias"), h, training);
    NDArray onH = Linear.linear(h, weight.get(new NDIndex(":, 0:" + d)), bias).singletonOrThrow();
    NDArray perLabel = Linear.linear(table, weight.get(new NDIndex(":, " + d + ":"))).singletonOrThrow(); // (K, d)
    return onH.add(labels.matMul(perLabel));
  }

  private NDArray conv(ParameterStore ps, int l, NDArray adj, NDArray h, boolean training) {
    if (options.conv() == Conv.GIN) {
      return forward1(ginMlps.get(l), ps, h.add(adj.matMul(h)), training);
    }
    // GatedGraphConv(d, 1): m_v = sum over neighbours u of W h_u, then PyTorch's GRUCell(m, h)
    NDArray m = adj.matMul(forward1(messages.get(l), ps, h, training));
    NDList gi = forward1(inputGates.get(l), ps, m, training).split(3, 1);
    NDList gh = forward1(hiddenGates.get(l), ps, h, training).split(3, 1);
    NDArray r = Activation.sigmoid(gi.get(0).add(gh.get(0)));
    NDArray u = Activation.sigmoid(gi.get(1).add(gh.get(1)));
    NDArray n = gi.get(2).add(r.mul(gh.get(2))).tanh();
    return n.add(u.mul(h.sub(n))); // (1 - u) n + u h
  }

  /**
   * BatchNorm1d over the subgraph nodes (every row a real node): batch statistics in training,
   * updating the running ones as PyTorch does (unbiased variance), the running ones in evaluation.
   */
  private static NDArray norm(ParameterStore ps, Parameter[] p, NDArray h, boolean training, float batchWeight) {
    NDArray gamma = PassValues.of(ps, p[0], h, training);
    NDArray beta = PassValues.of(ps, p[1], h, training);
    NDArray runningMean = PassValues.of(ps, p[2], h, training);
    NDArray runningVar = PassValues.of(ps, p[3], h, training);
    NDArray mean;
    NDArray var;
    if (training) {
      long n = h.getShape().get(0);
      mean = h.mean(new int[] {0});
      var = h.sub(mean).square().mean(new int[] {0});
      float unbiased = n > 1 ? n / (n - 1f) : 1f;
      runningMean.muli(1 - batchWeight).addi(Scalars.mul(mean.stopGradient(), batchWeight));
      runningVar.muli(1 - batchWeight).addi(Scalars.mul(var.stopGradient(), batchWeight * unbiased));
    } else {
      mean = runningMean;
      var = runningVar;
    }
    return h.sub(mean).div(var.add(1e-5f).sqrt()).mul(gamma).add(beta);
  }

  private static NDArray forward1(Block block, ParameterStore ps, NDArray x, boolean training) {
    return block.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[4].get(0), options.hidden())};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    int d = options.hidden();
    Shape nodes = new Shape(1, d);
    for (int l = 0; l < options.layers(); l++) {
      if (l > 0) {
        transforms.get(l - 1).initialize(manager, dataType, new Shape(1, 2L * d));
      }
      if (options.conv() == Conv.GATED) {
        messages.get(l).initialize(manager, dataType, nodes);
        inputGates.get(l).initialize(manager, dataType, nodes);
        hiddenGates.get(l).initialize(manager, dataType, nodes);
      } else {
        ginMlps.get(l).initialize(manager, dataType, nodes);
      }
    }
    pairMlp.initialize(manager, dataType, new Shape(1, d));
    rootMlp.initialize(manager, dataType, new Shape(1, d));
  }

  /** Input shapes of a one-triangle batch, to initialise. */
  Shape[] inputShapes(NDManager manager) {
    return inputs(manager, List.of(Graph.fromEdges(3, 0, 1, 1, 2, 2, 0))).getShapes();
  }

  /** The subgraph tensors of {@code graphs} (see the class comment). */
  NDList inputs(NDManager manager, List<Graph> graphs) {
    return inputs(manager, graphs, options.hops(), options.labels());
  }

  static NDList inputs(NDManager manager, List<Graph> graphs, int hops, Labels labelling) {
    return SubgraphTables.of(graphs, hops, labelling).toNDList(manager);
  }

  @Override
  public String toString() {
    return "I2GnnNetwork(" + options + ")";
  }
}
