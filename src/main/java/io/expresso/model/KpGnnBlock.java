package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.training.initializer.NormalInitializer;
import ai.djl.training.initializer.UniformInitializer;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * KP-GIN (Feng et al. 2022) as BREC's {@code KP-GNN/test_BREC_search.py} builds it ({@code --K=8
 * --kernel=spd --wo_path_encoding --num_layer=8 --hidden_size=32}; {@code KPGINConv}, {@code GNN},
 * {@code GraphClassification}), parameter for parameter where a parameter can reach the output:
 *
 * <ul>
 *   <li>input: every vertex starts from one learned vector (BREC embeds the constant feature 1);
 *   <li>peripheral subgraphs ({@link PeripheralSubgraphs}), once per graph: per vertex and hop, the
 *       edge count embedded and projected, plus the five configuration numbers each embedded and the
 *       five projected together, weighed by σ(pew) and σ(pcw); a count is a table row (BREC's
 *       {@code FeatureConcatEncoder}, counts capped at 1000, 0 reads a zero row);
 *   <li>per layer, the state as K slices of hidden/K: slice k sums the slice-k states of the vertices
 *       at distance exactly k plus, per such vertex, the layer's hop-1 or hop-k edge vector, adds
 *       the peripheral term and its own state, goes through a two-layer ReLU MLP of its own, the K
 *       slices are mixed channel-wise with learned geometric weights ({@code GeometricCombine}),
 *       projected from hidden/K to hidden, then a non-affine batch norm (no activation);
 *   <li>read-out: Linear and ReLU ({@code output_proj}), sum over vertices, Linear to d and a
 *       non-affine batch norm.
 * </ul>
 *
 * <p>Left out, because no input of BREC's script can reach them: the path-encoding table
 * ({@code --wo_path_encoding} zeroes its index), edge-type rows other than the one edge type, the
 * padding rows (always zero) and the projection columns a padding row feeds. Initialisation is
 * PyTorch's as those modules reset it (embeddings N(0, 1), Linear uniform ±1/√fan-in, the per-hop
 * matrices Kaiming-uniform, the combine weights 0).
 *
 * <p>Inputs: features N×(1+pe), ring table (N·K)×maxRing into the (N·K)×(hidden/K) slice rows,
 * ring sizes N×K×1, peripheral indices (N·K)×6 into the count tables, pooling B×nMax.
 */
final class KpGnnBlock extends GraphBlock {

  private static final int CACHE = 512;
  /** KP-GNN's {@code max_edge_count} and {@code max_distance_count}: larger counts read this row. */
  static final int MAX_COUNT = 1000;
  /** Peripheral numbers per vertex and hop: the edge count and the configuration's five. */
  static final int PERIPHERAL = 1 + 1 + PeripheralSubgraphs.CONFIGURATION_HOPS;

  private final ModelSpec spec;
  private final int hops;
  private final int slice;
  private final Parameter start;
  private final Block pe;
  private final Parameter edgeCounts;
  private final Block edgeProj;
  private final Parameter edgeWeight;
  private final List<Parameter> configurationCounts = new ArrayList<>();
  private final Block configurationProj;
  private final Parameter configurationWeight;
  private final List<Layer> layers = new ArrayList<>();
  private final Block output;
  private final Block readout;
  private final Block embeddingNorm;
  /** Per graph; synchronized: an eval's embedding passes encode from several threads. */
  private final Map<Graph, PeripheralSubgraphs> cache =
      Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Graph, PeripheralSubgraphs> eldest) {
      return size() > CACHE;
    }
  });

  /** One KPGINConv and its norm. */
  private record Layer(Parameter hop1Edge, Parameter hopKEdge, Parameter w1, Parameter b1, Parameter w2,
      Parameter b2, Parameter alphas, Block combineProj, Block norm) {}

  KpGnnBlock(ModelSpec spec) {
    this.spec = spec;
    this.hops = spec.radius();
    if (spec.hidden() % hops != 0) {
      throw new IllegalArgumentException("kp-gnn: hidden (" + spec.hidden() + ") must be a multiple of radius K ("
          + hops + "): each hop gets hidden/K channels");
    }
    this.slice = spec.hidden() / hops;
    int h = spec.hidden();
    start = embedding("start", 1, h);
    pe = spec.pe() > 0 ? addChildBlock("pe", pytorchLinear(h, spec.pe())) : null;
    edgeCounts = embedding("peripheral_edge_counts", MAX_COUNT, slice);
    // BREC's projection sees the (always padding) edge-type embedding too: its fan-in is 2·slice
    edgeProj = addChildBlock("peripheral_edge_proj", pytorchLinear(slice, 2 * slice));
    edgeWeight = scalar("pew");
    for (int i = 0; i <= PeripheralSubgraphs.CONFIGURATION_HOPS; i++) {
      configurationCounts.add(embedding("peripheral_configuration_counts" + i, MAX_COUNT, slice));
    }
    configurationProj = addChildBlock("peripheral_configuration_proj",
        pytorchLinear(slice, configurationCounts.size() * slice));
    configurationWeight = scalar("pcw");
    // nn.init.kaiming_uniform_ of a K×dk×dk tensor: fan-in dk·dk, bound √(6 / fan-in); biases ±1/√fan-in
    float fanIn = slice * slice;
    for (int l = 0; l < spec.layers(); l++) {
      layers.add(new Layer(
          embedding("hop1_edge" + l, 1, slice),
          embedding("hopk_edge" + l, 1, slice),
          weight("hop_proj1_" + l, new Shape(hops, slice, slice), (float) Math.sqrt(6 / fanIn)),
          weight("hop_bias1_" + l, new Shape(hops, 1, slice), (float) (1 / Math.sqrt(fanIn))),
          weight("hop_proj2_" + l, new Shape(hops, slice, slice), (float) Math.sqrt(6 / fanIn)),
          weight("hop_bias2_" + l, new Shape(hops, 1, slice), (float) (1 / Math.sqrt(fanIn))),
          addParameter(Parameter.builder().setName("alphas" + l).setType(Parameter.Type.WEIGHT)
              .optShape(new Shape(slice)).optInitializer(Initializer.ZEROS).build()),
          addChildBlock("combine_proj" + l, pytorchLinear(h, slice)),
          addChildBlock("norm" + l, BatchNorm.builder().optCenter(false).optScale(false)
              .optMomentum(spec.bnMomentum()).build())));
    }
    output = addChildBlock("output_proj", pytorchLinear(h, h));
    readout = addChildBlock("classifier", pytorchLinear(spec.embedding(), h));
    embeddingNorm = addChildBlock("bn", BatchNorm.builder().optCenter(false).optScale(false)
        .optMomentum(spec.bnMomentum()).build());
  }

  private static Linear pytorchLinear(int units, int fanIn) {
    Linear l = Linear.builder().setUnits(units).build();
    PyTorchInit.linear(l, fanIn);
    return l;
  }

  /** Rows of an nn.Embedding that an input can index, drawn N(0, 1) as nn.Embedding draws them. */
  private Parameter embedding(String name, int rows, int width) {
    return addParameter(Parameter.builder().setName(name).setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(rows, width)).optInitializer(new NormalInitializer(1f)).build());
  }

  private Parameter scalar(String name) {
    return addParameter(Parameter.builder().setName(name).setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(1)).optInitializer(new NormalInitializer(1f)).build());
  }

  private Parameter weight(String name, Shape shape, float bound) {
    return addParameter(Parameter.builder().setName(name).setType(Parameter.Type.WEIGHT)
        .optShape(shape).optInitializer(new UniformInitializer(bound)).build());
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
    float[] sizes = new float[rows];
    long[] counts = new long[rows * PERIPHERAL];
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
          sizes[row] = members.length;
          int[] c = brecCounts(p.features()[v][k]);
          for (int i = 0; i < PERIPHERAL; i++) {
            // count c reads table row c-1; 0 reads the zero padding row (index MAX_COUNT)
            counts[row * PERIPHERAL + i] = c[i] == 0 ? MAX_COUNT : c[i] - 1;
          }
        }
      }
      base += g.n();
    }
    return new NDList(
        manager.create(NodeFeature.table(batch, 0, spec.pe(), peSigns), new Shape(nodes, 1 + spec.pe())),
        NodeTables.padded(manager, ring, rows),
        manager.create(sizes, new Shape(nodes, hops, 1)),
        manager.create(counts, new Shape(rows, PERIPHERAL)),
        NodeTables.padded(manager, pool, nodes));
  }

  /**
   * KP-GNN's peripheral numbers of one hop, capped at {@link #MAX_COUNT}: the ordered edge count,
   * then the configuration (edges among equidistant vertices, ordered pairs at distance 1..4). A
   * ring of fewer than two vertices or without edges is all zeros, as {@code extract_peripheral_attr_v2} leaves it.
   */
  static int[] brecCounts(float[] f) {
    int[] c = new int[PERIPHERAL];
    if (f[0] < 2 || f[1] == 0) {
      return c;
    }
    c[0] = (int) f[1];
    for (int i = 0; i <= PeripheralSubgraphs.CONFIGURATION_HOPS; i++) {
      c[1 + i] = (int) f[2 + i];
    }
    for (int i = 0; i < c.length; i++) {
      c[i] = Math.min(c[i], MAX_COUNT);
    }
    return c;
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray features = inputs.get(0);
    NDArray ring = inputs.get(1);
    NDArray sizes = inputs.get(2);
    NDArray idx = inputs.get(3);
    long n = features.getShape().get(0);
    NDArray h = PassValues.of(ps, start, features, training).repeat(0, n);
    if (pe != null) {
      h = h.add(pe.forward(ps, new NDList(features.get(":, 1:")), training).singletonOrThrow());
    }
    NDArray peripheral = peripheral(ps, idx, training).reshape(n, hops, slice);
    for (Layer layer : layers) {
      NDArray x = h.reshape(n * hops, slice);
      NDArray edge = PassValues.of(ps, layer.hop1Edge, x, training);
      if (hops > 1) {
        edge = edge.concat(PassValues.of(ps, layer.hopKEdge, x, training).repeat(0, hops - 1), 0);
      }
      // Σ over the ring of (x_u + e_k): the ring's states, and its size times the hop's edge vector
      NDArray y = Gather.sumRows(x, ring).reshape(n, hops, slice)
          .add(sizes.mul(edge.reshape(1, hops, slice)))
          .add(peripheral)
          .add(h.reshape(n, hops, slice));
      NDArray z = y.transpose(1, 0, 2); // K × N × dk
      z = Activation.relu(z.matMul(PassValues.of(ps, layer.w1, z, training))
          .add(PassValues.of(ps, layer.b1, z, training)));
      z = Activation.relu(z.matMul(PassValues.of(ps, layer.w2, z, training))
          .add(PassValues.of(ps, layer.b2, z, training)));
      NDArray combined = z.mul(geometric(PassValues.of(ps, layer.alphas, z, training)).reshape(hops, 1, slice))
          .sum(new int[] {0}); // N × dk
      NDArray mixed = layer.combineProj.forward(ps, new NDList(combined), training).singletonOrThrow();
      h = layer.norm.forward(ps, new NDList(mixed), training).singletonOrThrow();
    }
    h = Activation.relu(output.forward(ps, new NDList(h), training).singletonOrThrow());
    NDArray graphs = Gather.sumRows(h, inputs.get(4));
    NDArray e = readout.forward(ps, new NDList(graphs), training).singletonOrThrow();
    return embeddingNorm.forward(ps, new NDList(e), training);
  }

  /** GeometricCombine's K×dk weights: softmax over k of α(1-α)^k, α = σ(alphas), per channel. */
  private NDArray geometric(NDArray alphas) {
    NDArray a = Activation.sigmoid(alphas);
    NDArray rest = a.neg().add(1f);
    NDList thetas = new NDList();
    NDArray power = a.onesLike();
    for (int k = 0; k < hops; k++) {
      thetas.add(a.mul(power).reshape(1, slice));
      power = power.mul(rest);
    }
    return NDArrays.concat(thetas, 0).softmax(0);
  }

  /** σ(pew)·EdgeEncoder + σ(pcw)·ConfigurationEncoder: (N·K)×dk. */
  private NDArray peripheral(ParameterStore ps, NDArray idx, boolean training) {
    long rows = idx.getShape().get(0);
    var device = idx.getDevice();
    NDArray edgeEmb = Gather.sumRows(PassValues.of(ps, edgeCounts, idx, training), idx.get(":, 0:1"));
    NDArray edge = edgeProj.forward(ps, new NDList(edgeEmb), training).singletonOrThrow();
    NDList parts = new NDList();
    for (int i = 0; i < configurationCounts.size(); i++) {
      parts.add(Gather.sumRows(PassValues.of(ps, configurationCounts.get(i), idx, training),
          idx.get(":, " + (1 + i) + ":" + (2 + i))));
    }
    NDArray configuration = configurationProj.forward(ps, new NDList(NDArrays.concat(parts, 1)), training)
        .singletonOrThrow();
    NDArray pew = Activation.sigmoid(PassValues.of(ps, edgeWeight, idx, training));
    NDArray pcw = Activation.sigmoid(PassValues.of(ps, configurationWeight, idx, training));
    return edge.mul(pew).add(configuration.mul(pcw)).reshape(rows, slice);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    if (pe != null) {
      pe.initialize(manager, dataType, new Shape(1, spec.pe()));
    }
    edgeProj.initialize(manager, dataType, new Shape(1, slice));
    configurationProj.initialize(manager, dataType, new Shape(1, configurationCounts.size() * slice));
    for (Layer layer : layers) {
      layer.combineProj.initialize(manager, dataType, new Shape(1, slice));
      layer.norm.initialize(manager, dataType, new Shape(1, spec.hidden()));
    }
    output.initialize(manager, dataType, new Shape(1, spec.hidden()));
    readout.initialize(manager, dataType, new Shape(1, spec.hidden()));
    embeddingNorm.initialize(manager, dataType, new Shape(1, spec.embedding()));
  }
}
