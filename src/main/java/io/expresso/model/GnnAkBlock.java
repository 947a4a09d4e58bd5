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
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.training.initializer.NormalInitializer;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.ArrayList;
import java.util.List;

/**
 * GNN-AK+ (Zhao et al. 2022, "From Stars to Subgraphs: Uplifting Any GNN with Local Structure
 * Awareness") as BREC's {@code GNNAsKernel/test_BREC.py} builds its {@code GNNAsKernel} with
 * {@code train/configs/BREC.yaml} (4 outer layers × 32, 2 mini-layers of GINEConv, k-hop ego-nets of
 * radius 6, hop embedding 16, centroid + subgraph + context encodings concatenated, sum pooling, no
 * virtual node, no dropout, batch norms, residuals).
 *
 * <p>Every vertex r roots the subgraph of the vertices within {@code radius} of it (induced edges,
 * as the authors' {@code k_hop_subgraph}; unlike {@link EgoNetsPlus} the vertices outside the ball
 * are not in it, so neither batch norms nor pooling see them). Per outer layer, with x the vertex
 * states: each subgraph node starts from its vertex's x beside the embedding of its distance to the
 * root; two GINE layers ({@code MLP((1+ε)h_i + Σ_j relu(h_j + e))}, e the layer's edge embedding of
 * BREC's single edge type; batch norm, ReLU, residual) and a linear map to the width; then
 * <ul>
 *   <li>centroid: the root's own row, gated by {@code sigmoid(Linear(hop embedding))};
 *   <li>subgraph: Σ over the subgraph's rows of {@code relu(BN(Linear(h)))}, each gated by its hop;
 *   <li>context: Σ over the vertex's copies in every subgraph, likewise with its own transform and gate;
 * </ul>
 * concatenated, a linear map back to the width, batch norm, ReLU and the residual. Then the graph's
 * sum and Linear, BatchNorm, ReLU, Linear to d. BREC's input is the constant vertex feature 1 and one
 * edge type, so its input and edge encoders read one embedding row each; Linear layers start as
 * PyTorch's, embeddings N(0, 1), ε at 0.
 *
 * <p>Inputs: each subgraph node's vertex T×1, its hop one-hot T×(radius+1), its in-ball neighbours
 * (padded), each subgraph's rows (padded, R = the vertices), each vertex's copies (padded), each
 * subgraph's root row R×1, each graph's vertices (padded) and a column of ones R×1.
 */
final class GnnAkBlock extends GraphBlock {

  /** {@code model.mini_layers}: GINE layers inside each subgraph. */
  static final int MINI_LAYERS = 2;
  /** {@code model.hops_dim}: width of the hop-distance embedding. */
  static final int HOP_DIM = 16;
  /** The largest radius the authors' hop embedding takes ({@code nn.Embedding(20, hop_dim)}, row hop + 1; ModelSpec checks it). */
  static final int MAX_RADIUS = 18;

  private final ModelSpec spec;
  private final Parameter input;
  private final List<Layer> layers = new ArrayList<>();
  private final Block decoder;

  /** One outer layer, named as the authors' SubgraphGNNKernel and GNNAsKernel lists. */
  private record Layer(Parameter edge, Parameter hops, Parameter[] eps, Block[] convs, Block[] convNorms,
      Block output, Block subgraphTransform, Block contextTransform, Block gateCentroid, Block gateSubgraph,
      Block gateContext, Block outEncoder, Block norm) {}

  GnnAkBlock(ModelSpec spec) {
    this.spec = spec;
    int h = spec.hidden();
    int inner = h + HOP_DIM;
    input = embedding("input_encoder", 1, h);
    for (int l = 0; l < spec.layers(); l++) {
      String p = "layer" + l + ".";
      Parameter[] eps = new Parameter[MINI_LAYERS];
      Block[] convs = new Block[MINI_LAYERS];
      Block[] convNorms = new Block[MINI_LAYERS];
      for (int c = 0; c < MINI_LAYERS; c++) {
        eps[c] = addParameter(Parameter.builder().setName(p + "eps" + c).setType(Parameter.Type.WEIGHT)
            .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build());
        // GINEConv's MLP(nin, nin, 2, with_final_activation=False, bias=False): its second norm is never applied
        SequentialBlock mlp = new SequentialBlock()
            .add(linear(inner, inner, false))
            .add(norm())
            .add(Activation.reluBlock())
            .add(linear(inner, inner, false));
        convs[c] = addChildBlock(p + "conv" + c, mlp);
        convNorms[c] = addChildBlock(p + "convNorm" + c, norm());
      }
      layers.add(new Layer(
          embedding(p + "edge_encoder", 1, inner),
          embedding(p + "hop_embedder", spec.radius() + 1, HOP_DIM),
          eps, convs, convNorms,
          addChildBlock(p + "output_encoder", linear(h, inner, true)),
          addChildBlock(p + "subgraph_transform", linearNormRelu(h)),
          addChildBlock(p + "context_transform", linearNormRelu(h)),
          addChildBlock(p + "gate_centroid", gate(h)),
          addChildBlock(p + "gate_subgraph", gate(h)),
          addChildBlock(p + "gate_context", gate(h)),
          addChildBlock(p + "out_encoder", linear(h, 3 * h, false)),
          addChildBlock(p + "norm", norm())));
    }
    // output_decoder: MLP(nhid, nout, nlayer=2, with_final_activation=False)
    decoder = addChildBlock("output_decoder", new SequentialBlock()
        .add(linear(h, h, false))
        .add(norm())
        .add(Activation.reluBlock())
        .add(linear(spec.embedding(), h, true)));
  }

  private static Linear linear(int units, int fanIn, boolean bias) {
    Linear l = Linear.builder().setUnits(units).optBias(bias).build();
    PyTorchInit.linear(l, fanIn);
    return l;
  }

  private BatchNorm norm() {
    return BatchNorm.builder().optMomentum(spec.bnMomentum()).build();
  }

  /** The authors' MLP(n, n, nlayer=1, with_final_activation=True): Linear without bias, BatchNorm, ReLU. */
  private Block linearNormRelu(int h) {
    return new SequentialBlock().add(linear(h, h, false)).add(norm()).add(Activation.reluBlock());
  }

  /** {@code nn.Sequential(nn.Linear(hop_dim, nout), nn.Sigmoid())}. */
  private static Block gate(int h) {
    return new SequentialBlock().add(linear(h, HOP_DIM, true)).add(Activation::sigmoid);
  }

  /** The rows of an nn.Embedding that BREC's inputs index, drawn N(0, 1) as nn.Embedding draws them. */
  private Parameter embedding(String name, int rows, int width) {
    return addParameter(Parameter.builder().setName(name).setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(rows, width)).optInitializer(new NormalInitializer(1f)).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // one row per vertex of every ball; per outer layer the two mini-layers' neighbour gathers dominate, the
    // encodings' narrower rows and pooling gathers about match the estimate's 16 dense rows per unit
    long rows = 0;
    for (int r = 0; r < g.n(); r++) {
      for (int d : ShortestPaths.bfs(g, r)) {
        rows += inside(d) ? 1 : 0;
      }
    }
    return NodeTables.activationBytes(rows, g.maxDegree(), spec.hidden() + HOP_DIM, spec.layers() * MINI_LAYERS);
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    int vertices = 0;
    List<int[][]> distances = new ArrayList<>(graphs.size());
    int rows = 0;
    for (Graph g : graphs) {
      int[][] d = new int[g.n()][];
      for (int r = 0; r < g.n(); r++) {
        d[r] = ShortestPaths.bfs(g, r);
        for (int v = 0; v < g.n(); v++) {
          rows += inside(d[r][v]) ? 1 : 0;
        }
      }
      distances.add(d);
      vertices += g.n();
    }
    int width = spec.radius() + 1;
    long[] vertexOf = new long[rows];
    float[] hop = new float[rows * width];
    int[][] neighbours = new int[rows][];
    int[][] subgraphRows = new int[vertices][];
    int[][] copies = new int[vertices][];
    int[] copyCount = new int[vertices];
    long[] rootRow = new long[vertices];
    int[][] graphPool = new int[graphs.size()][];
    int row = 0;
    int base = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      int n = g.n();
      int[][] d = distances.get(b);
      graphPool[b] = new int[n];
      for (int v = 0; v < n; v++) {
        int c = 0;
        for (int r = 0; r < n; r++) {
          c += inside(d[r][v]) ? 1 : 0;
        }
        copies[base + v] = new int[c];
      }
      int[] local = new int[n];
      for (int r = 0; r < n; r++) {
        int size = 0;
        for (int v = 0; v < n; v++) {
          local[v] = inside(d[r][v]) ? row + size++ : -1;
        }
        subgraphRows[base + r] = new int[size];
        for (int v = 0; v < n; v++) {
          if (local[v] < 0) {
            continue;
          }
          int at = local[v];
          vertexOf[at] = base + v;
          hop[at * width + d[r][v]] = 1f;
          subgraphRows[base + r][at - row] = at;
          copies[base + v][copyCount[base + v]++] = at;
          int[] ns = g.neighbors(v);
          int k = 0;
          for (int u : ns) {
            if (local[u] >= 0) {
              ns[k++] = local[u];
            }
          }
          neighbours[at] = java.util.Arrays.copyOf(ns, k);
        }
        rootRow[base + r] = local[r];
        graphPool[b][r] = base + r;
        row += size;
      }
      base += n;
    }
    return new NDList(
        manager.create(vertexOf, new Shape(rows, 1)),
        manager.create(hop, new Shape(rows, width)),
        NodeTables.padded(manager, neighbours, rows),
        NodeTables.padded(manager, subgraphRows, rows),
        NodeTables.padded(manager, copies, rows),
        manager.create(rootRow, new Shape(vertices, 1)),
        NodeTables.padded(manager, graphPool, vertices),
        manager.ones(new Shape(vertices, 1)));
  }

  private boolean inside(int distance) {
    return distance >= 0 && distance <= spec.radius();
  }

  private static NDArray run(Block b, ParameterStore ps, NDArray x, boolean training) {
    return b.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray vertexOf = inputs.get(0);
    NDArray hopOneHot = inputs.get(1);
    NDArray neighbours = inputs.get(2);
    NDArray subgraphRows = inputs.get(3);
    NDArray copies = inputs.get(4);
    NDArray rootRow = inputs.get(5);
    NDArray graphPool = inputs.get(6);
    NDArray ones = inputs.get(7);
    ai.djl.Device device = ones.getDevice();
    NDArray x = ones.matMul(PassValues.of(ps, input, ones, training)); // input_encoder(1) for every vertex
    NDArray previous = x;
    for (Layer l : layers) {
      NDArray edge = PassValues.of(ps, l.edge(), ones, training);
      NDArray hopTable = PassValues.of(ps, l.hops(), ones, training); // row k: distance k (the authors' row k + 1)
      NDArray h = Gather.sumRows(x, vertexOf).concat(hopOneHot.matMul(hopTable), 1);
      NDArray before = h;
      for (int c = 0; c < MINI_LAYERS; c++) {
        NDArray messages = Gather.sumRows(Activation.relu(h.add(edge)), neighbours);
        NDArray self = h.mul(PassValues.of(ps, l.eps()[c], ones, training).add(1f));
        h = Activation.relu(run(l.convNorms()[c], ps, run(l.convs()[c], ps, self.add(messages), training), training));
        h = h.add(before);
        before = h;
      }
      h = run(l.output(), ps, h, training);
      // the gates depend on the hop alone: computed once per distance, then read per row
      NDArray centroidGate = run(l.gateCentroid(), ps, hopTable, training).get("0:1");
      NDArray subgraphGate = hopOneHot.matMul(run(l.gateSubgraph(), ps, hopTable, training));
      NDArray contextGate = hopOneHot.matMul(run(l.gateContext(), ps, hopTable, training));
      NDArray centroid = Gather.sumRows(h, rootRow).mul(centroidGate);
      NDArray subgraph = Gather.sumRows(run(l.subgraphTransform(), ps, h, training).mul(subgraphGate), subgraphRows);
      NDArray context = Gather.sumRows(run(l.contextTransform(), ps, h, training).mul(contextGate), copies);
      x = run(l.outEncoder(), ps, centroid.concat(subgraph, 1).concat(context, 1), training);
      x = Activation.relu(run(l.norm(), ps, x, training)).add(previous);
      previous = x;
    }
    return decoder.forward(ps, new NDList(Gather.sumRows(x, graphPool)), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    int inner = h + HOP_DIM;
    // the embeddings and ε are this block's own parameters: AbstractBlock initialises them after the children
    for (Layer l : layers) {
      for (int c = 0; c < MINI_LAYERS; c++) {
        l.convs()[c].initialize(manager, dataType, new Shape(1, inner));
        l.convNorms()[c].initialize(manager, dataType, new Shape(1, inner));
      }
      l.output().initialize(manager, dataType, new Shape(1, inner));
      l.subgraphTransform().initialize(manager, dataType, new Shape(1, h));
      l.contextTransform().initialize(manager, dataType, new Shape(1, h));
      for (Block g : List.of(l.gateCentroid(), l.gateSubgraph(), l.gateContext())) {
        g.initialize(manager, dataType, new Shape(1, HOP_DIM));
      }
      l.outEncoder().initialize(manager, dataType, new Shape(1, 3 * h));
      l.norm().initialize(manager, dataType, new Shape(1, h));
    }
    decoder.initialize(manager, dataType, new Shape(1, h));
  }
}
