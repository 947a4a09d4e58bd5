package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * I²-GNN (Huang et al., ICLR 2023): for every root i and every neighbour j of i, the k-hop
 * subgraph around i with i and j marked; an inner GIN-style MPNN runs on each such subgraph, node
 * states are summed per subgraph, subgraphs are summed over j (then an MLP) per root, roots are
 * summed per graph, and a final MLP gives the count. Marking a neighbour besides the root is what
 * lets it count 4-cycles and chordal cycles, which node-marked subgraph GNNs cannot.
 *
 * <p>Tensors are dense per subgraph (P subgraphs of N vertices each, N the largest k-hop ball in
 * the batch), so one message-passing step is one batched matmul (P×N×N)·(P×N×d): on the 30-vertex
 * graphs of the paper that is cheaper than scatter-based sparse message passing on a CPU. Node
 * features: the two marks and one-hot distance encodings to the root (0…k) and to the marked
 * neighbour (0…k+1, or farther), zero outside the subgraph. The distance encoding (Li et al. 2020,
 * also an option of the I²-GNN code) adds no power beyond the marks after a few layers but makes
 * training converge in far fewer steps, which matters on a CPU. As in the I²-GNN code, the node
 * labels are re-injected at every layer: layer l > 0 reads its predecessor's states concatenated
 * with the labels.
 */
public final class I2Gnn extends AbstractBlock implements GraphRegressor {

  /** 2: the node labels are re-injected at every layer (version 1 checkpoints do not load). */
  private static final byte VERSION = 2;
  /**
   * Fixed factors on the sums (messages and the three poolings) that keep initial activations of
   * order one on 10–30-vertex graphs; constants, so every pooling stays a sum up to scale and
   * counts on larger graphs stay expressible.
   */
  private static final float MESSAGE_SCALE = 0.25f;
  private static final float POOL_SCALE = 0.1f;

  private final int hidden;
  private final int layers;
  private final int hops;
  private final List<Block> inner = new ArrayList<>();
  private final Block rootMlp;
  private final Block head;

  /**
   * @param hidden width d of every hidden layer
   * @param layers inner message-passing layers
   * @param hops radius k of the rooted subgraphs (2 reaches every 4-cycle through the root)
   */
  public I2Gnn(int hidden, int layers, int hops) {
    super(VERSION);
    if (hidden < 1 || layers < 1 || hops < 1) {
      throw new IllegalArgumentException("I2-GNN needs hidden, layers and hops >= 1, got " + hidden
          + ", " + layers + ", " + hops);
    }
    this.hidden = hidden;
    this.layers = layers;
    this.hops = hops;
    for (int l = 0; l < layers; l++) {
      inner.add(addChildBlock("inner" + l, mlp(hidden, hidden)));
    }
    rootMlp = addChildBlock("root", mlp(hidden, hidden));
    head = addChildBlock("head", new SequentialBlock()
        .add(Linear.builder().setUnits(hidden).build())
        .add(Activation::relu)
        .add(Linear.builder().setUnits(1).build()));
  }

  static Block mlp(int h1, int h2) {
    return new SequentialBlock()
        .add(Linear.builder().setUnits(h1).build())
        .add(Activation::relu)
        .add(Linear.builder().setUnits(h2).build())
        .add(Activation::relu);
  }

  @Override
  public String name() {
    return "i2gnn";
  }

  @Override
  public Block block() {
    return this;
  }

  @Override
  public Block head() {
    return head;
  }

  /** Marks (root, neighbour, other), distance to the root 0…k, distance to the neighbour 0…k+1 or farther. */
  int features() {
    return features(hops);
  }

  static int features(int hops) {
    return 3 + (hops + 1) + (hops + 3);
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList in, boolean training,
      PairList<String, Object> params) {
    NDArray perGraph = pooled(ps, in, inner, rootMlp, training);
    NDArray out = head.forward(ps, new NDList(perGraph), training).head();
    return new NDList(out.reshape(-1));
  }

  /**
   * The network up to the per-graph state (B, d), shared with the pair embedder
   * {@link I2GnnBlock}: inner layers on the subgraphs of {@link #subgraphs}, then the three poolings.
   */
  static NDArray pooled(ParameterStore ps, NDList in, List<Block> inner, Block rootMlp, boolean training) {
    NDArray adj = in.get(0);        // (P, N, N)
    NDArray labels = in.get(1);     // (P, N, F)
    NDArray h = labels;
    NDArray mask = in.get(2);       // (P, N, 1)
    NDArray pairToRoot = in.get(3); // (R, P)
    NDArray rootToGraph = in.get(4); // (B, R)
    NDList states = new NDList();
    for (Block layer : inner) {
      if (h != labels) {
        h = NDArrays.concat(new NDList(h, labels), -1); // labels re-injected at every layer
      }
      // GIN update: own state plus the sum over subgraph neighbours, then an MLP.
      NDArray agg = h.add(adj.matMul(h).mul(MESSAGE_SCALE));
      h = layer.forward(ps, new NDList(agg), training).head().mul(mask);
      states.add(h);
    }
    // Jumping knowledge: every layer's states are pooled, so short-range motifs (a triangle is
    // visible after one layer) reach the readout without passing through later layers.
    NDArray perPair = NDArrays.concat(states, -1).sum(new int[] {1}).mul(POOL_SCALE); // (P, L·d)
    NDArray perRoot = pairToRoot.matMul(perPair).mul(POOL_SCALE); // (R, d)
    perRoot = rootMlp.forward(ps, new NDList(perRoot), training).head();
    return rootToGraph.matMul(perRoot).mul(POOL_SCALE); // (B, d)
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[4].get(0))};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    long p = inputShapes[1].get(0);
    long n = inputShapes[1].get(1);
    Shape s = new Shape(p, n, features());
    for (Block layer : inner) {
      layer.initialize(manager, dataType, s);
      s = new Shape(p, n, hidden + features()); // states and the re-injected labels
    }
    rootMlp.initialize(manager, dataType, new Shape(inputShapes[3].get(0), (long) hidden * layers));
    head.initialize(manager, dataType, new Shape(inputShapes[4].get(0), hidden));
  }

  @Override
  public Shape[] inputShapes(NDManager manager) {
    return inputs(manager, List.of(Graph.fromEdges(3, 0, 1, 1, 2))).getShapes();
  }

  @Override
  public NDList inputs(NDManager manager, List<Graph> graphs) {
    return subgraphs(manager, graphs, hops, 0, null);
  }

  /**
   * One subgraph per root i and neighbour j of i: adjacency (P, N, N), node labels (P, N, F),
   * mask (P, N, 1), subgraph-to-root (R, P) and root-to-graph (B, R) pooling matrices. A subgraph's
   * nodes are its root's {@code hops}-ball in vertex order, padded to N = the largest ball in the
   * batch (not the largest graph: a 1-hop ball of a 30-vertex graph has about 6 vertices, and the
   * matmul's cost goes with N²). With {@code pe > 0} each subgraph node's labels end with its
   * vertex's Laplacian encodings (F = {@link #features(int)} + pe), signs multiplied by
   * {@code peSigns} (null: none).
   */
  static NDList subgraphs(NDManager manager, List<Graph> graphs, int hops, int pe, float[] peSigns) {
    int nMax = 1;
    int pairs = 0;
    int roots = 0;
    List<int[][]> balls = new ArrayList<>(graphs.size());
    for (Graph g : graphs) {
      int[][] ball = balls(g, hops);
      nMax = Math.max(nMax, largestBall(g, ball));
      balls.add(ball);
      pairs += 2 * g.m();
      roots += g.n();
    }
    int marks = features(hops);
    int f = marks + pe;
    pairs = Math.max(pairs, 1); // an edgeless batch still gets one all-zero subgraph
    float[] adj = new float[pairs * nMax * nMax];
    float[] x = new float[pairs * nMax * f];
    float[] mask = new float[pairs * nMax];
    float[] pairToRoot = new float[roots * pairs];
    float[] rootToGraph = new float[graphs.size() * roots];
    int p = 0;
    int rootBase = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      float[][] enc = pe > 0 ? NodeFeature.pe(g, pe, peSigns) : null;
      int[][] farther = new int[g.n()][]; // distances within hops + 1 from each marked neighbour, on demand
      int[] local = new int[g.n()];
      for (int i = 0; i < g.n(); i++) {
        int root = rootBase + i;
        rootToGraph[b * roots + root] = 1;
        int[] dist = balls.get(b)[i];
        int size = 0;
        for (int v = 0; v < g.n(); v++) {
          local[v] = dist[v] < 0 ? -1 : size++;
        }
        for (int j : g.neighbors(i)) {
          if (farther[j] == null) {
            farther[j] = distancesWithin(g, j, hops + 1);
          }
          int[] distJ = farther[j];
          for (int v = 0; v < g.n(); v++) {
            if (local[v] < 0) {
              continue;
            }
            int row = p * nMax + local[v];
            mask[row] = 1;
            int xv = row * f;
            x[xv + (v == i ? 0 : v == j ? 1 : 2)] = 1;
            x[xv + 3 + dist[v]] = 1;
            x[xv + 3 + hops + 1 + (distJ[v] < 0 ? hops + 2 : distJ[v])] = 1;
            if (enc != null) {
              System.arraycopy(enc[v], 0, x, xv + marks, pe);
            }
            for (int w : g.neighbors(v)) {
              if (local[w] >= 0) {
                adj[row * nMax + local[w]] = 1;
              }
            }
          }
          pairToRoot[root * pairs + p] = 1;
          p++;
        }
      }
      rootBase += g.n();
    }
    return new NDList(
        manager.create(adj, new Shape(pairs, nMax, nMax)),
        manager.create(x, new Shape(pairs, nMax, f)),
        manager.create(mask, new Shape(pairs, nMax, 1)),
        manager.create(pairToRoot, new Shape(roots, pairs)),
        manager.create(rootToGraph, new Shape(graphs.size(), roots)));
  }

  /** Per vertex of {@code g}: the distances within {@code hops} of it ({@link #distancesWithin}). */
  static int[][] balls(Graph g, int hops) {
    int[][] ball = new int[g.n()][];
    for (int i = 0; i < g.n(); i++) {
      ball[i] = distancesWithin(g, i, hops);
    }
    return ball;
  }

  /** The most vertices in the ball of a root that has subgraphs (a neighbour), at least 1. */
  static int largestBall(Graph g, int[][] balls) {
    int most = 1;
    for (int i = 0; i < g.n(); i++) {
      if (g.degree(i) == 0) {
        continue;
      }
      int size = 0;
      for (int d : balls[i]) {
        if (d >= 0) {
          size++;
        }
      }
      most = Math.max(most, size);
    }
    return most;
  }

  /** BFS distances from {@code s}, −1 beyond {@code k} hops or unreachable. */
  static int[] distancesWithin(Graph g, int s, int k) {
    int[] d = new int[g.n()];
    Arrays.fill(d, -1);
    d[s] = 0;
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(s);
    while (!queue.isEmpty()) {
      int u = queue.poll();
      if (d[u] == k) {
        continue;
      }
      for (int w : g.neighbors(u)) {
        if (d[w] < 0) {
          d[w] = d[u] + 1;
          queue.add(w);
        }
      }
    }
    return d;
  }

  @Override
  public String toString() {
    return "I2Gnn(hidden=" + hidden + ", layers=" + layers + ", hops=" + hops + ")";
  }
}
