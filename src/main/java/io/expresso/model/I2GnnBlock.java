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
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * I²-GNN as a pair embedder, Expresso's own earlier variant (the count regressor's until issue 41,
 * which made {@link I2Gnn} the authors' network, {@link I2GnnNetwork}): per root i and neighbour j
 * the {@code radius}-hop subgraph around i with i and j marked and one-hot distance-encoded, the
 * labels re-injected at every layer, an inner GIN update scaled by 0.25, jumping knowledge, sums
 * per subgraph, root (then an MLP) and graph scaled by 0.1, and a linear map to d.
 */
final class I2GnnBlock extends GraphBlock {

  private final ModelSpec spec;
  private final List<Block> inner = new ArrayList<>();
  private final Block rootMlp;
  private final Block readout;

  I2GnnBlock(ModelSpec spec) {
    this.spec = spec;
    for (int l = 0; l < spec.layers(); l++) {
      inner.add(addChildBlock("inner" + l, mlp(spec.hidden(), spec.hidden())));
    }
    rootMlp = addChildBlock("root", mlp(spec.hidden(), spec.hidden()));
    readout = addChildBlock("readout", Linear.builder().setUnits(spec.embedding()).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public int paddedSize(Graph g) {
    return largestBall(g, balls(g, spec.radius()));
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // 2m dense subgraphs of the batch's largest ball: the adjacency, and per layer about 8
    // (hidden + labels)-wide float rows per subgraph node (input, matmul, MLP stages, gradients)
    long subgraphs = Math.max(1, 2L * g.m());
    long n = maxVertices;
    long width = spec.hidden() + features(spec.radius()) + spec.pe();
    return 4L * subgraphs * (n * n + 8L * n * width * spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    return subgraphs(manager, batch.graphs(), spec.radius(), spec.pe(), peSigns);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray perGraph = pooled(ps, inputs, inner, rootMlp, training);
    return readout.forward(ps, new NDList(perGraph), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int labels = features(spec.radius()) + spec.pe(); // re-injected with the marks at every layer
    for (int l = 0; l < inner.size(); l++) {
      inner.get(l).initialize(manager, dataType, new Shape(1, 1, l == 0 ? labels : spec.hidden() + labels));
    }
    rootMlp.initialize(manager, dataType, new Shape(1, (long) spec.hidden() * spec.layers()));
    readout.initialize(manager, dataType, new Shape(1, spec.hidden()));
  }

  /**
   * Fixed factors on the sums (messages and the three poolings) that keep initial activations of
   * order one on 10–30-vertex graphs; constants, so every pooling stays a sum up to scale.
   */
  private static final float MESSAGE_SCALE = 0.25f;
  private static final float POOL_SCALE = 0.1f;

  static Block mlp(int h1, int h2) {
    return new SequentialBlock()
        .add(Linear.builder().setUnits(h1).build())
        .add(Activation::relu)
        .add(Linear.builder().setUnits(h2).build())
        .add(Activation::relu);
  }

  static int features(int hops) {
    return 3 + (hops + 1) + (hops + 3);
  }

  /** The network up to the per-graph state (B, d): inner layers on {@link #subgraphs}, then the three poolings. */
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
}
