package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.ArrayList;
import java.util.List;

/**
 * DE+NGNN (Zhang and Li 2021; Li et al. 2020) as BREC's {@code NestedGNN/test_BREC.py} builds its
 * {@code NestedGIN} ({@code test_BREC_search_ngnnde.py}: {@code --h=8 --layers=6 --width=128
 * --node_label=hop}): for every root vertex, the subgraph induced by the vertices within
 * {@code radius} hops, each vertex featured by a one-hot of its shortest-path distance to the root
 * (distance encoding); an inner GIN-0 whose layers are Linear, ReLU, Linear, ReLU (no norm) runs on
 * all subgraphs at once (one flat node table), subgraph states are sum-pooled per root, root states
 * per graph, then Linear and ReLU, Linear to d and a non-affine batch norm ({@code bn2}, PyTorch
 * momentum 1.0: {@code bn-momentum=0} here). Linear layers start as PyTorch's.
 *
 * <p>The same network with {@link Labels#NONE} is BREC's plain NGNN ({@code test_BREC_search_ngnn.py}:
 * {@code --h=1 --layers=6 --width=16 --node_label=no}): no distance label, so every subgraph
 * vertex's feature is the constant 1 its dataset transform gives ({@code Linear(1, hidden)} first),
 * the root unmarked.
 *
 * <p>Inputs: features M×(radius+1+pe) (distance one-hot, or the constant 1 without labels, then the vertex's positional encoding), neighbour table M×maxDeg, subgraph pooling R×sMax, graph
 * pooling B×nMax (M subgraph nodes in all, R = total roots = total vertices; padding = row count).
 */
final class NgnnDeBlock extends GraphBlock {

  /** What labels a subgraph's vertices before the inner GIN (BREC's {@code --node_label}). */
  enum Labels {
    /** {@code hop}: a one-hot of the distance to the root, 0..radius (DE+NGNN). */
    DISTANCE,
    /** {@code no}: the constant 1 (NGNN). */
    NONE
  }

  private final ModelSpec spec;
  private final Labels labels;
  private final List<Block> mlps = new ArrayList<>();
  private final Block lin1;
  private final Block lin2;
  private final Block bn2;

  NgnnDeBlock(ModelSpec spec, Labels labels) {
    this.spec = spec;
    this.labels = labels;
    for (int l = 0; l < spec.layers(); l++) {
      Block mlp = addChildBlock("mlp" + l, Mlp.plain(spec.hidden()));
      PyTorchInit.linears(mlp, l == 0 ? inputWidth() : spec.hidden(), spec.hidden());
      mlps.add(mlp);
    }
    lin1 = addChildBlock("lin1", Linear.builder().setUnits(spec.hidden()).build());
    PyTorchInit.linear(lin1, spec.hidden());
    lin2 = addChildBlock("lin2", Linear.builder().setUnits(spec.embedding()).build());
    PyTorchInit.linear(lin2, spec.hidden());
    bn2 = addChildBlock("bn2", BatchNorm.builder().optCenter(false).optScale(false)
        .optMomentum(spec.bnMomentum()).build());
  }

  private int inputWidth() {
    return labelWidth() + spec.pe();
  }

  private int labelWidth() {
    return labels == Labels.DISTANCE ? spec.radius() + 1 : 1;
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // as GIN's, over the nodes of all rooted subgraphs (a node appears once per ball it lies in)
    long nodes = 0;
    for (int r = 0; r < g.n(); r++) {
      for (int d : ShortestPaths.bfs(g, r)) {
        nodes += d >= 0 && d <= spec.radius() ? 1 : 0;
      }
    }
    return NodeTables.activationBytes(nodes, g.maxDegree(), spec.hidden(), spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    int radius = spec.radius();
    int peDim = spec.pe();
    List<int[]> neighbours = new ArrayList<>();
    List<Integer> distances = new ArrayList<>();
    List<float[]> positions = new ArrayList<>(); // each subgraph node's vertex's encoding (pe > 0)
    List<int[]> subPool = new ArrayList<>();
    int[][] graphPool = new int[graphs.size()][];
    int root = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      float[][] pe = peDim > 0 ? NodeFeature.pe(g, peDim, peSigns) : null;
      graphPool[b] = new int[g.n()];
      for (int r = 0; r < g.n(); r++) {
        int[] dist = ShortestPaths.bfs(g, r);
        int[] local = new int[g.n()];
        int base = distances.size();
        int size = 0;
        for (int v = 0; v < g.n(); v++) {
          local[v] = dist[v] >= 0 && dist[v] <= radius ? base + size++ : -1;
        }
        int[] members = new int[size];
        for (int v = 0; v < g.n(); v++) {
          if (local[v] < 0) {
            continue;
          }
          members[local[v] - base] = local[v];
          distances.add(dist[v]);
          if (pe != null) {
            positions.add(pe[v]);
          }
          int[] ns = g.neighbors(v);
          int k = 0;
          for (int u : ns) {
            if (local[u] >= 0) {
              ns[k++] = local[u];
            }
          }
          neighbours.add(java.util.Arrays.copyOf(ns, k));
        }
        subPool.add(members);
        graphPool[b][r] = root++;
      }
    }
    int m = distances.size();
    int labelWidth = labelWidth();
    int width = labelWidth + peDim;
    float[] x = new float[m * width];
    for (int i = 0; i < m; i++) {
      x[i * width + (labels == Labels.DISTANCE ? distances.get(i) : 0)] = 1f;
      if (peDim > 0) {
        System.arraycopy(positions.get(i), 0, x, i * width + labelWidth, peDim);
      }
    }
    return new NDList(
        manager.create(x, new Shape(m, width)),
        NodeTables.padded(manager, neighbours.toArray(new int[0][]), m),
        NodeTables.padded(manager, subPool.toArray(new int[0][]), m),
        NodeTables.padded(manager, graphPool, root));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    for (Block mlp : mlps) {
      NDArray agg = h.add(Gather.sumRows(h, inputs.get(1)));
      h = mlp.forward(ps, new NDList(agg), training).singletonOrThrow();
    }
    NDArray roots = Gather.sumRows(h, inputs.get(2));
    NDArray graphs = Gather.sumRows(roots, inputs.get(3));
    NDArray hidden = Activation.relu(lin1.forward(ps, new NDList(graphs), training).singletonOrThrow());
    return bn2.forward(ps, lin2.forward(ps, new NDList(hidden), training), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    for (int l = 0; l < mlps.size(); l++) {
      mlps.get(l).initialize(manager, dataType, new Shape(1, l == 0 ? inputWidth() : spec.hidden()));
    }
    lin1.initialize(manager, dataType, new Shape(1, spec.hidden()));
    lin2.initialize(manager, dataType, new Shape(1, spec.hidden()));
    bn2.initialize(manager, dataType, new Shape(1, spec.embedding()));
  }
}
