package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * KP-GIN (Feng et al. 2022) as BREC ran it ({@code --K=8 --kernel=spd --wo_path_encoding}): the
 * hidden state of a vertex is K slices of width hidden/K, slice k listening to the vertices at
 * shortest-path distance exactly k, plus that hop's peripheral-subgraph description
 * ({@link PeripheralSubgraphs}: size, edges, configuration; log-scaled, one linear map shared by
 * all layers). Per layer: {@code y_k = x_k + Σ_{d(v,u)=k} x_{u,k} + P_k}, a two-layer MLP per hop,
 * the K slices concatenated and projected to hidden (KP-GNN mixes them with learned geometric
 * weights; a projection of the concatenation can express that mix), then BREC's non-affine batch
 * norm and ReLU. Readout: last layer, sum over vertices, linear to d.
 *
 * <p>Inputs: features N×1 (constant), hop table (N·K)×maxRing into the (N·K)×(hidden/K) slice
 * rows (padding N·K), peripheral features (N·K)×{@value PeripheralSubgraphs#FEATURES}, pooling B×nMax.
 */
final class KpGnnBlock extends GraphBlock {

  private static final int CACHE = 512;

  private final ModelSpec spec;
  private final int hops;
  private final int slice;
  private final Block input;
  private final Block peripheral;
  private final List<List<Block>> hopMlps = new ArrayList<>();
  private final List<Block> combines = new ArrayList<>();
  private final List<Block> norms = new ArrayList<>();
  private final Block readout;
  private final Map<Graph, PeripheralSubgraphs> cache = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Graph, PeripheralSubgraphs> eldest) {
      return size() > CACHE;
    }
  };

  KpGnnBlock(ModelSpec spec) {
    this.spec = spec;
    this.hops = spec.radius();
    if (spec.hidden() % hops != 0) {
      throw new IllegalArgumentException("kp-gnn: hidden (" + spec.hidden() + ") must be a multiple of radius K ("
          + hops + "): each hop gets hidden/K channels");
    }
    this.slice = spec.hidden() / hops;
    input = addChildBlock("input", Linear.builder().setUnits(spec.hidden()).build());
    peripheral = addChildBlock("peripheral", Linear.builder().setUnits(slice).build());
    for (int l = 0; l < spec.layers(); l++) {
      List<Block> perHop = new ArrayList<>();
      for (int k = 0; k < hops; k++) {
        perHop.add(addChildBlock("hop" + l + "_" + k, new SequentialBlock()
            .add(Linear.builder().setUnits(slice).build())
            .add(Activation.reluBlock())
            .add(Linear.builder().setUnits(slice).build())
            .add(Activation.reluBlock())));
      }
      hopMlps.add(perHop);
      combines.add(addChildBlock("combine" + l, Linear.builder().setUnits(spec.hidden()).build()));
      norms.add(addChildBlock("norm" + l,
          BatchNorm.builder().optCenter(false).optScale(false).optMomentum(spec.bnMomentum()).build()));
    }
    readout = addChildBlock("readout", Linear.builder().setUnits(spec.embedding()).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // every vertex reads every other vertex once across its K rings: the ring gather holds
    // n·n slice-wide rows per layer, besides the per-node MLP stages
    long n = g.n();
    return 4L * spec.layers() * (n * n * slice * 2 + n * spec.hidden() * 24L);
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    int nodes = 0;
    for (Graph g : graphs) {
      nodes += g.n();
    }
    int rows = nodes * hops;
    int[][] ring = new int[rows][];
    float[] feat = new float[rows * PeripheralSubgraphs.FEATURES];
    int[][] pool = new int[graphs.size()][];
    int base = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      PeripheralSubgraphs p = cache.computeIfAbsent(g, x -> PeripheralSubgraphs.of(x, hops));
      pool[b] = new int[g.n()];
      for (int v = 0; v < g.n(); v++) {
        pool[b][v] = base + v;
        for (int k = 0; k < hops; k++) {
          int row = (base + v) * hops + k;
          int[] members = p.hop()[v][k];
          ring[row] = new int[members.length];
          for (int i = 0; i < members.length; i++) {
            ring[row][i] = (base + members[i]) * hops + k; // slice k of vertex u
          }
          float[] f = p.features()[v][k];
          for (int i = 0; i < f.length; i++) {
            feat[row * PeripheralSubgraphs.FEATURES + i] = (float) Math.log1p(f[i]);
          }
        }
      }
      base += g.n();
    }
    return new NDList(
        manager.create(NodeFeature.table(batch, 0, spec.pe(), peSigns), new Shape(nodes, 1 + spec.pe())),
        NodeTables.padded(manager, ring, rows),
        manager.create(feat, new Shape(rows, PeripheralSubgraphs.FEATURES)),
        NodeTables.padded(manager, pool, nodes));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = input.forward(ps, new NDList(inputs.get(0)), training).singletonOrThrow();
    NDArray ring = inputs.get(1);
    NDArray p = peripheral.forward(ps, new NDList(inputs.get(2)), training).singletonOrThrow();
    long n = h.getShape().get(0);
    for (int l = 0; l < hopMlps.size(); l++) {
      NDArray x = h.reshape(n * hops, slice);
      NDArray y = x.add(Gather.sumRows(x, ring)).add(p).reshape(n, hops, slice);
      NDList out = new NDList();
      for (int k = 0; k < hops; k++) {
        NDArray yk = y.get(":, " + k + ", :");
        out.add(hopMlps.get(l).get(k).forward(ps, new NDList(yk), training).singletonOrThrow());
      }
      NDArray mixed = combines.get(l).forward(ps, new NDList(NDArrays.concat(out, 1)), training).singletonOrThrow();
      h = Activation.relu(norms.get(l).forward(ps, new NDList(mixed), training).singletonOrThrow());
    }
    NDArray graphs = Gather.sumRows(h, inputs.get(3));
    return readout.forward(ps, new NDList(graphs), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    input.initialize(manager, dataType, new Shape(1, 1 + spec.pe()));
    peripheral.initialize(manager, dataType, new Shape(1, PeripheralSubgraphs.FEATURES));
    for (int l = 0; l < hopMlps.size(); l++) {
      for (Block b : hopMlps.get(l)) {
        b.initialize(manager, dataType, new Shape(1, slice));
      }
      combines.get(l).initialize(manager, dataType, new Shape(1, spec.hidden()));
      norms.get(l).initialize(manager, dataType, new Shape(1, spec.hidden()));
    }
    readout.initialize(manager, dataType, new Shape(1, spec.hidden()));
  }
}
