package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.Dropout;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.training.initializer.NormalInitializer;
import ai.djl.util.PairList;
import io.expresso.engine.Scalars;
import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Graphormer (Ying et al. 2021, "Do Transformers Really Perform Bad for Graph Representation?") as
 * BREC's {@code Graphormer/graphormer/test_BREC.py} builds it with {@code test_BREC_search.py}'s
 * flags ({@code --n_layers 12 --hidden_dim 80 --ffn_dim 80 --num_heads 8 --dropout_rate 0.0
 * --intput_dropout_rate 0.0 --edge_type none}; {@code attention_dropout_rate} keeps its default 0.1).
 * A graph of n vertices becomes n + 1 tokens, a learned graph token first. A vertex's token is BREC's
 * one atom row (every BREC vertex has feature 1) plus two degree embeddings of its degree (BREC's
 * model reads {@code in_degree} for both its in- and out-degree tables). Each of the layers is
 * pre-norm: {@code x + MHA(LN(x), bias)}, then {@code x + FFN(LN(x))} with FFN Linear, GELU, Linear.
 * The attention of every head adds a bias to its scores: between vertices i and j, a learned
 * per-head value of their shortest-path distance (one more row for unreachable pairs, as BREC's
 * Floyd–Warshall gives them distance 510 and their own row) plus the edge encoding with no edge
 * features ({@code edge_type none}: a learned row where i and j are adjacent, and elsewhere the row
 * BREC's padding index leaves at its random start and never trains); between the graph token and
 * anything, BREC's virtual distance {@code t}. The read-out is the graph token after a final layer
 * norm, mapped by Linear to d. Linear weights start N(0, 0.02/√layers) with zero biases and
 * embeddings N(0, 0.02), BREC's {@code init_params}.
 *
 * <p>Inputs: degree rows B×n, distance rows B×n×n, adjacency B×n×n (int64), and where the batch's
 * graphs differ in size an additive key mask B×1×1×(n+1) (−∞ on padding; BREC's pairs never pad).
 */
final class GraphormerBlock extends GraphBlock {

  /** BREC's {@code --num_heads 8}; the hidden width must split evenly among them. */
  static final int HEADS = 8;
  /** {@code attention_dropout_rate}: the search script leaves Graphormer's default. */
  static final float ATTENTION_DROPOUT = 0.1f;
  /** Degrees 0..31 have their own row, higher ones share the last (BREC's 400 pairs reach 30). */
  static final int DEGREE_ROWS = 32;
  /** Distances 0..30 have their own row, longer ones share the last finite one (BREC's reach 21). */
  static final int MAX_DISTANCE = 30;
  /** Rows of the spatial table: distances 0..MAX_DISTANCE, then unreachable. */
  static final int SPATIAL_ROWS = MAX_DISTANCE + 2;
  /** BREC's {@code init_params}: embeddings N(0, 0.02), linear weights N(0, 0.02/√layers). */
  private static final float EMBEDDING_STD = 0.02f;
  private static final int CACHE = 4096;

  private final ModelSpec spec;
  private final int dk;
  private final Parameter atom;
  private final Parameter inDegree;
  private final Parameter outDegree;
  private final Parameter spatial;
  private final Parameter nonEdge;
  private final Parameter edge;
  private final Parameter graphToken;
  private final Parameter virtualDistance;
  private final List<Layer> layers = new ArrayList<>();
  private final Block finalNorm;
  private final Block out;
  /** Degree and distance rows per graph: the pair's 64 graphs are encoded every epoch. */
  private final Map<Graph, long[][]> cache = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Graph, long[][]> eldest) {
      return size() > CACHE;
    }
  });

  /** One encoder layer, named as BREC's EncoderLayer. */
  private record Layer(Block attentionNorm, Block q, Block k, Block v, Block o, Block ffnNorm, Block ffn1,
      Block ffn2) {}

  GraphormerBlock(ModelSpec spec) {
    this.spec = spec;
    int h = spec.hidden();
    this.dk = h / HEADS;
    atom = embedding("atom_encoder", 1, h, true);
    inDegree = embedding("in_degree_encoder", DEGREE_ROWS, h, true);
    outDegree = embedding("out_degree_encoder", DEGREE_ROWS, h, true);
    spatial = embedding("spatial_pos_encoder", SPATIAL_ROWS, HEADS, true);
    nonEdge = embedding("edge_encoder_padding", 1, HEADS, false);
    edge = embedding("edge_encoder", 1, HEADS, true);
    graphToken = embedding("graph_token", 1, h, true);
    virtualDistance = embedding("graph_token_virtual_distance", 1, HEADS, true);
    float std = (float) (0.02 / Math.sqrt(spec.layers()));
    for (int l = 0; l < spec.layers(); l++) {
      String p = "layer" + l + ".";
      layers.add(new Layer(addChildBlock(p + "self_attention_norm", LayerNorm.builder().build()),
          linear(p + "linear_q", h, std), linear(p + "linear_k", h, std), linear(p + "linear_v", h, std),
          linear(p + "output_layer", h, std), addChildBlock(p + "ffn_norm", LayerNorm.builder().build()),
          linear(p + "ffn.layer1", h, std), linear(p + "ffn.layer2", h, std)));
    }
    finalNorm = addChildBlock("final_ln", LayerNorm.builder().build());
    out = linear("downstream_out_proj", spec.embedding(), std);
  }

  private Parameter embedding(String name, int rows, int width, boolean trained) {
    return addParameter(Parameter.builder().setName(name).setType(Parameter.Type.WEIGHT)
        .optShape(new Shape(rows, width)).optInitializer(new NormalInitializer(EMBEDDING_STD))
        .optRequiresGrad(trained).build());
  }

  private Block linear(String name, int units, float std) {
    Linear l = Linear.builder().setUnits(units).build();
    l.setInitializer(new NormalInitializer(std), Parameter.Type.WEIGHT);
    l.setInitializer(Initializer.ZEROS, Parameter.Type.BIAS);
    return addChildBlock(name, l);
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // per layer: scores, biased scores, probabilities and their dropout mask over H×T² cells, the
    // bias itself, and about twelve token-wide rows (norms, q, k, v, context, FFN) per token
    long t = maxVertices + 1L;
    long perLayer = 5L * HEADS * t * t + 12L * t * spec.hidden();
    return 4L * (spec.layers() * perLayer + 4L * t * t * HEADS);
  }

  /** Degree rows (n) and distance rows (n²) of {@code g}, the distance row of i and j at i·n + j. */
  private static long[][] rows(Graph g) {
    int n = g.n();
    long[] degrees = new long[n];
    long[] distances = new long[n * n];
    int[][] d = ShortestPaths.allPairs(g);
    for (int u = 0; u < n; u++) {
      degrees[u] = Math.min(g.degree(u), DEGREE_ROWS - 1);
      for (int v = 0; v < n; v++) {
        int x = d[u][v];
        distances[u * n + v] = x == ShortestPaths.UNREACHABLE ? SPATIAL_ROWS - 1 : Math.min(x, MAX_DISTANCE);
      }
    }
    return new long[][] {degrees, distances};
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    int b = graphs.size();
    int n = 1;
    boolean padded = false;
    for (Graph g : graphs) {
      n = Math.max(n, g.n());
    }
    long[] degrees = new long[b * n];
    long[] distances = new long[b * n * n];
    long[] adjacency = new long[b * n * n];
    float[] mask = new float[b * (n + 1)];
    for (int i = 0; i < b; i++) {
      Graph g = graphs.get(i);
      padded |= g.n() != n;
      long[][] r = cache.computeIfAbsent(g, GraphormerBlock::rows);
      System.arraycopy(r[0], 0, degrees, i * n, g.n());
      for (int u = 0; u < g.n(); u++) {
        System.arraycopy(r[1], u * g.n(), distances, (i * n + u) * n, g.n());
        for (int v = 0; v < g.n(); v++) {
          adjacency[(i * n + u) * n + v] = g.adjacent(u, v) ? 1 : 0;
        }
      }
      for (int v = g.n(); v < n; v++) {
        mask[i * (n + 1) + 1 + v] = Float.NEGATIVE_INFINITY;
      }
    }
    NDList in = new NDList(manager.create(degrees, new Shape(b, n)), manager.create(distances, new Shape(b, n, n)),
        manager.create(adjacency, new Shape(b, n, n)));
    if (padded) {
      in.add(manager.create(mask, new Shape(b, 1, 1, n + 1)));
    }
    return in;
  }

  /** Rows {@code idx} (any shape, int64) of {@code table} (R×f): idx's shape then f, as nn.Embedding. */
  private static NDArray lookup(NDArray table, NDArray idx) {
    long f = table.getShape().get(1);
    long count = idx.getShape().size();
    NDArray flat = idx.reshape(count, 1).broadcast(new Shape(count, f));
    long[] dims = new long[idx.getShape().dimension() + 1];
    System.arraycopy(idx.getShape().getShape(), 0, dims, 0, dims.length - 1);
    dims[dims.length - 1] = f;
    return table.gather(flat, 0).reshape(new Shape(dims));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray degrees = inputs.get(0);
    NDArray distances = inputs.get(1);
    NDArray adjacency = inputs.get(2);
    long b = degrees.getShape().get(0);
    long n = degrees.getShape().get(1);
    long t = n + 1;
    int h = spec.hidden();
    var device = degrees.getDevice();

    // the attention bias, B×H×T×T: the virtual distance on the graph token's row and column
    NDArray edges = PassValues.of(ps, nonEdge, degrees, training).concat(PassValues.of(ps, edge, degrees, training), 0);
    NDArray inner = lookup(PassValues.of(ps, spatial, degrees, training), distances).add(lookup(edges, adjacency))
        .transpose(0, 3, 1, 2);
    NDArray virtual = PassValues.of(ps, virtualDistance, degrees, training).reshape(1, HEADS, 1, 1);
    NDArray bias = virtual.broadcast(new Shape(b, HEADS, 1, t))
        .concat(virtual.broadcast(new Shape(b, HEADS, n, 1)).concat(inner, 3), 2);
    if (inputs.size() > 3) {
      bias = bias.add(inputs.get(3));
    }

    // tokens: the graph token, then each vertex's atom row and its degree rows (BREC adds two tables)
    NDArray nodes = lookup(PassValues.of(ps, inDegree, degrees, training), degrees)
        .add(lookup(PassValues.of(ps, outDegree, degrees, training), degrees))
        .add(PassValues.of(ps, atom, degrees, training).reshape(1, 1, h));
    NDArray token = PassValues.of(ps, graphToken, degrees, training).reshape(1, 1, h).broadcast(new Shape(b, 1, h));
    NDArray x = token.concat(nodes, 1).reshape(b * t, h);

    float scale = (float) Math.pow(dk, -0.5);
    for (Layer l : layers) {
      NDArray y = forward1(l.attentionNorm(), ps, x, training);
      NDArray q = Scalars.mul(forward1(l.q(), ps, y, training).reshape(b, t, HEADS, dk).transpose(0, 2, 1, 3), scale);
      NDArray k = forward1(l.k(), ps, y, training).reshape(b, t, HEADS, dk).transpose(0, 2, 3, 1);
      NDArray v = forward1(l.v(), ps, y, training).reshape(b, t, HEADS, dk).transpose(0, 2, 1, 3);
      NDArray p = q.matMul(k).add(bias).softmax(3);
      if (training) {
        p = Dropout.dropout(p, ATTENTION_DROPOUT, true).singletonOrThrow();
      }
      NDArray context = p.matMul(v).transpose(0, 2, 1, 3).reshape(b * t, h);
      x = x.add(forward1(l.o(), ps, context, training));
      y = forward1(l.ffnNorm(), ps, x, training);
      y = Activation.gelu(forward1(l.ffn1(), ps, y, training));
      x = x.add(forward1(l.ffn2(), ps, y, training));
    }
    // layer norm is per token: the graph token's rows alone give what BREC reads
    NDArray graph = x.reshape(b, t, h).get(":, 0, :");
    return new NDList(forward1(out, ps, forward1(finalNorm, ps, graph, training), training));
  }

  private static NDArray forward1(Block block, ParameterStore ps, NDArray x, boolean training) {
    return block.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    Shape row = new Shape(1, h);
    for (Layer l : layers) {
      for (Block b : List.of(l.attentionNorm(), l.q(), l.k(), l.v(), l.o(), l.ffnNorm(), l.ffn1())) {
        b.initialize(manager, dataType, row);
      }
      l.ffn2().initialize(manager, dataType, row); // BREC's ffn_dim 80 = hidden_dim
    }
    finalNorm.initialize(manager, dataType, row);
    out.initialize(manager, dataType, row);
  }
}
