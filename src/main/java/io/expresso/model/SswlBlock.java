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
 * SSWL_P (Zhang et al. 2023, "A Complete Expressiveness Hierarchy for Subgraph GNNs via Subgraph
 * Weisfeiler-Lehman Tests") as BREC's {@code SWL/test_BREC.py} builds its {@code GNN} with
 * {@code test_BREC_search.py}'s flags ({@code --model=SSWL_P --max_dis=8 --num_layer=8
 * --dim_embed=64}). Every ordered vertex pair (u, v), u's subgraph seen at v, is a row; its start
 * is the embedding of the distance d(u, v) capped at max_dis ({@code radius}). Each layer, with
 * x(u, v) the pair's state:
 *
 * <pre>
 *   x'(u, v) = ReLU(BN(Σ_a MLP_a((1 + ε_a) x(u, v) + m_a(u, v))))   a ∈ {uL, vL, vv}
 *   m_uL(u, v) = Σ_{w ∈ N(v)} ReLU(x(u, w))     (local, inside u's subgraph)
 *   m_vL(u, v) = Σ_{w ∈ N(u)} ReLU(x(w, v))     (local, across the subgraphs at v)
 *   m_vv(u, v) = x(v, v)                        (v's own subgraph's root)
 * </pre>
 *
 * then one pooling layer {@code ReLU(BN(MLP(Σ_w x(u, w))))} (uG, no self term), the mean over all
 * pairs of the graph and Linear(h, 2h), ReLU, Linear(2h, d). Each MLP is Linear, BN, ReLU, Linear;
 * the ReLU on local messages is BREC's {@code Bond} without edge features. Linear layers start as
 * PyTorch's, the distance embedding N(0, 1), each ε at 0.
 *
 * <p>Differences from BREC's construction ({@link BrecConstruction}): an unreachable pair reads
 * its own distance row (max_dis + 1) where BREC's Floyd–Warshall leaves ∞, which {@code to(int)}
 * makes INT64_MIN and the embedding lookup refuses (BREC's 3-WL subset's disconnected graphs);
 * the 16 bond encoders (no edge features reach them) and the pooling layer's ε (its
 * {@code gin=False} never reads it) are not built.
 *
 * <p>Inputs: distance row per pair T×1, the uL and vL neighbour tables T×Δ, the vv row T×1, the
 * pairs of each subgraph S×n, each pair's subgraph T×1, the subgraphs of each graph B×n and
 * 1/n² per graph B×1. Pair (u, v) of a graph is row {@code base + u·n + v}, as BREC's layout.
 */
final class SswlBlock extends GraphBlock {

  /** SSWL_P's layer aggregations, in BREC's scheme order. */
  private static final List<String> SCHEME = List.of("uL", "vL", "vv");

  private final ModelSpec spec;
  private final Parameter distance;
  private final List<Layer> layers = new ArrayList<>();
  private final Block poolMlp;
  private final Block poolNorm;
  private final Block fin;

  /** One Agg layer of BREC's: per aggregation ε and its MLP, then the shared norm. */
  private record Layer(List<Parameter> eps, List<Block> mlps, Block norm) {}

  SswlBlock(ModelSpec spec) {
    this.spec = spec;
    int h = spec.hidden();
    distance = addParameter(Parameter.builder().setName("embed_d").setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(distanceRows(spec), h)).optInitializer(new NormalInitializer(1f)).build());
    for (int l = 0; l < spec.layers(); l++) {
      List<Parameter> eps = new ArrayList<>();
      List<Block> mlps = new ArrayList<>();
      for (String a : SCHEME) {
        String p = "A" + l + "." + a;
        eps.add(addParameter(Parameter.builder().setName(p + ".eps").setType(Parameter.Type.WEIGHT)
            .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build()));
        mlps.add(mlp(p + ".mlp"));
      }
      layers.add(new Layer(eps, mlps, norm("A" + l + ".nr")));
    }
    poolMlp = mlp("A" + spec.layers() + ".uG.mlp");
    poolNorm = norm("A" + spec.layers() + ".nr");
    SequentialBlock f = new SequentialBlock()
        .add(Linear.builder().setUnits(2L * h).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(spec.embedding()).build());
    PyTorchInit.linears(f, h, 2 * h);
    fin = addChildBlock("pool", f);
  }

  /** Distances 0 … max_dis (larger ones capped), then the unreachable pairs' row. */
  static int distanceRows(ModelSpec spec) {
    return spec.radius() + 2;
  }

  private Block mlp(String name) {
    SequentialBlock b = Mlp.linearNormLinear(spec.hidden(), spec.bnMomentum());
    PyTorchInit.linears(b, spec.hidden(), spec.hidden());
    return addChildBlock(name, b);
  }

  private Block norm(String name) {
    return addChildBlock(name, BatchNorm.builder().optMomentum(spec.bnMomentum()).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // three aggregations, each with its MLP, over n² pair rows per layer; both local ones gather Δ rows
    long rows = (long) g.n() * g.n();
    return 3 * NodeTables.activationBytes(rows, g.maxDegree(), spec.hidden(), spec.layers() + 1);
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) { // ModelSpec refuses pe
    List<Graph> graphs = batch.graphs();
    int total = 0;
    int subgraphs = 0;
    for (Graph g : graphs) {
      total += g.n() * g.n();
      subgraphs += g.n();
    }
    int unreachable = spec.radius() + 1;
    long[] dist = new long[total];
    int[][] local = new int[total][];
    int[][] across = new int[total][];
    long[] diagonal = new long[total];
    int[][] pairsOf = new int[subgraphs][];
    long[] subgraphOf = new long[total];
    int[][] subgraphsOf = new int[graphs.size()][];
    float[] inversePairs = new float[graphs.size()];
    int base = 0;
    int sub = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      int n = g.n();
      subgraphsOf[b] = new int[n];
      inversePairs[b] = 1f / ((float) n * n);
      for (int u = 0; u < n; u++, sub++) {
        int[] d = ShortestPaths.bfs(g, u);
        subgraphsOf[b][u] = sub;
        pairsOf[sub] = new int[n];
        int[] nu = g.neighbors(u);
        for (int v = 0; v < n; v++) {
          int row = base + u * n + v;
          dist[row] = d[v] < 0 ? unreachable : Math.min(d[v], spec.radius());
          int[] nv = g.neighbors(v);
          local[row] = new int[nv.length];
          for (int k = 0; k < nv.length; k++) {
            local[row][k] = base + u * n + nv[k];
          }
          across[row] = new int[nu.length];
          for (int k = 0; k < nu.length; k++) {
            across[row][k] = base + nu[k] * n + v;
          }
          diagonal[row] = base + v * n + v;
          pairsOf[sub][v] = row;
          subgraphOf[row] = sub;
        }
      }
      base += n * n;
    }
    return new NDList(
        manager.create(dist, new Shape(total, 1)),
        NodeTables.padded(manager, local, total),
        NodeTables.padded(manager, across, total),
        manager.create(diagonal, new Shape(total, 1)),
        NodeTables.padded(manager, pairsOf, total),
        manager.create(subgraphOf, new Shape(total, 1)),
        NodeTables.padded(manager, subgraphsOf, subgraphs),
        manager.create(inversePairs, new Shape(graphs.size(), 1)));
  }

  private static NDArray run(Block b, ParameterStore ps, NDArray x, boolean training) {
    return b.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray dist = inputs.get(0);
    List<NDArray> tables = List.of(inputs.get(1), inputs.get(2), inputs.get(3));
    NDArray pairsOf = inputs.get(4);
    NDArray subgraphOf = inputs.get(5);
    NDArray subgraphsOf = inputs.get(6);
    NDArray x = Gather.sumRows(PassValues.of(ps, distance, dist, training), dist);
    for (Layer l : layers) {
      NDArray messages = Activation.relu(x); // Bond without edge features, local aggregations only
      NDArray sum = null;
      for (int a = 0; a < SCHEME.size(); a++) {
        NDArray from = SCHEME.get(a).endsWith("L") ? messages : x;
        NDArray self = x.mul(PassValues.of(ps, l.eps().get(a), x, training).add(1f));
        NDArray out = run(l.mlps().get(a), ps, self.add(Gather.sumRows(from, tables.get(a))), training);
        sum = sum == null ? out : sum.add(out);
      }
      x = Activation.relu(run(l.norm(), ps, sum, training));
    }
    NDArray perSubgraph = Gather.sumRows(x, pairsOf);
    x = Activation.relu(run(poolNorm, ps, run(poolMlp, ps, Gather.sumRows(perSubgraph, subgraphOf), training),
        training));
    NDArray graph = Gather.sumRows(Gather.sumRows(x, pairsOf), subgraphsOf).mul(inputs.get(7));
    return fin.forward(ps, new NDList(graph), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    Shape row = new Shape(1, spec.hidden());
    for (Layer l : layers) {
      for (Block b : l.mlps()) {
        b.initialize(manager, dataType, row);
      }
      l.norm().initialize(manager, dataType, row);
    }
    poolMlp.initialize(manager, dataType, row);
    poolNorm.initialize(manager, dataType, row);
    fin.initialize(manager, dataType, row);
  }
}
