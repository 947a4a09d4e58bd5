package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * I²-GNN as a pair embedder, BREC's ({@code I2GNN/count_models.py} I2GNN as its
 * {@code test_BREC_search.py} builds it: {@code --h=8 --node_label=spd --layers=5}): the one
 * {@link I2GnnNetwork} with BREC's options (GatedGraphConv with a GRU, the summed spd label
 * embeddings re-injected by a Linear per layer, an affine batch norm after every conv, the pair and
 * root pooling MLPs, sums; bn-momentum the per-layer norms'), then BREC's head: fc1 (hidden → 16), ELU, a non-affine batch norm
 * (PyTorch momentum 0.99), fc3 (16 → d). BREC's {@code subgraph_pooling='mean'} branch pools by
 * sum ({@code global_add_pool}), as here. Differences ({@link BrecConstruction}): each embedding
 * holds the 2h + 6 rows the labels can read where BREC's holds 50, and layer 0's unused
 * {@code transform_before_conv} is not built.
 */
final class I2GnnBlock extends GraphBlock {

  /** Width of BREC's fc1 (fixed in count_models.py). */
  private static final int FC1 = 16;
  /** BREC's bn1 momentum 0.99 in PyTorch's convention, in DJL's (the weight of the old running value). */
  private static final float HEAD_NORM_MOMENTUM = 0.01f;

  private final ModelSpec spec;
  private final I2GnnNetwork network;
  private final Block head;

  I2GnnBlock(ModelSpec spec) {
    this.spec = spec;
    network = addChildBlock("network", new I2GnnNetwork(new I2GnnNetwork.Options(spec.hidden(), spec.layers(),
        spec.radius(), I2GnnNetwork.Conv.GATED, I2GnnNetwork.Labels.SPD, true, spec.bnMomentum())));
    head = addChildBlock("head", new SequentialBlock()
        .add(I2GnnNetwork.torchLinear(FC1, spec.hidden(), true))
        .add(x -> new NDList(Activation.elu(x.singletonOrThrow(), 1f)))
        .add(BatchNorm.builder().optCenter(false).optScale(false).optMomentum(HEAD_NORM_MOMENTUM).build())
        .add(I2GnnNetwork.torchLinear(spec.embedding(), FC1, true)));
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
    // an upper bound: per (root, neighbour) one subgraph as large as the batch's largest ball (the
    // tensors are packed, one row per real subgraph node), per layer about 8 rows of the GRU's
    // 3·hidden gates plus the labels per node, and the adjacency
    long subgraphs = Math.max(1, 2L * g.m());
    long n = maxVertices;
    long width = 3L * spec.hidden() + I2GnnNetwork.Labels.SPD.distinct(spec.radius());
    return 4L * subgraphs * (n * n + 8L * n * width * spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) { // ModelSpec refuses pe
    return network.inputs(manager, batch.graphs());
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDList perGraph = network.forward(ps, inputs, training);
    return head.forward(ps, perGraph, training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    network.initialize(manager, dataType, network.inputShapes(manager));
    head.initialize(manager, dataType, new Shape(2, spec.hidden()));
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
