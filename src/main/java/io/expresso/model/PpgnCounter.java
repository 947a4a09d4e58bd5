package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
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
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.XavierInitializer;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * PPGN counting a pattern as Campi et al. build it ({@code src/ppgn/ppgn.py}, class {@code PPGN},
 * {@code pooling='add'}, {@code concat=True}): the input B×(in+1)×n×n holds {@code in} diagonal
 * channels (their node features, all ones, put on the diagonal) and the adjacency; {@code layers}
 * regular blocks (in+1 → hidden, hidden → hidden × (layers − 2), hidden → d), each two MLPs of
 * {@code depth} 1×1 convolutions with ReLU after each, their outputs multiplied channel-wise as
 * n×n matrices, and a 1×1 convolution of [input, product] (no activation); every block's output
 * concatenated, summed over the diagonal and off the diagonal (2·(hidden·(layers − 1) + d)
 * values), then the final MLP Linear → d, {@code act}, Linear → 1 (the part retrained in the OOD
 * study). Convolutions Xavier-uniform with zero biases (their {@code _init_weights}); the final
 * MLP PyTorch's default Linear initialisation.
 *
 * <p>One deviation: where a batch mixes graph sizes, padding cells are zeroed after every
 * convolution (theirs let the biases fill them and enter the products); the paper's datasets have
 * one size each (30 or 10 vertices), so their batches have no padding.
 */
public final class PpgnCounter extends AbstractBlock implements GraphRegressor {

  private static final byte VERSION = 1;

  /**
   * The sizes, as their constructor's arguments.
   *
   * @param in their {@code in_channels}: identical diagonal channels (their grid's channels[0])
   * @param hidden {@code hidden_channels}
   * @param out {@code out_channels}: the last block's width and the final MLP's
   * @param layers {@code num_layers}, at least 2 (the first and the last block)
   * @param depth {@code depth_of_mlp}
   * @param tanh the final MLP's activation is tanh ({@code act='tanh'}), else ReLU
   */
  public record Options(int in, int hidden, int out, int layers, int depth, boolean tanh) {
    public Options {
      if (in < 1 || hidden < 1 || out < 1 || layers < 2 || depth < 1) {
        throw new IllegalArgumentException("PPGN needs in, hidden, d, depth >= 1 and layers >= 2, got in=" + in
            + ", hidden=" + hidden + ", d=" + out + ", layers=" + layers + ", depth=" + depth);
      }
    }
  }

  private final Options options;
  private final List<Block> left = new ArrayList<>();
  private final List<Block> right = new ArrayList<>();
  private final List<Block> skip = new ArrayList<>();
  private final Block head;

  public PpgnCounter(Options options) {
    super(VERSION);
    this.options = options;
    for (int l = 0; l < options.layers(); l++) {
      int width = l == options.layers() - 1 ? options.out() : options.hidden();
      left.add(addChildBlock("left" + l, convMlp(width, options.depth())));
      right.add(addChildBlock("right" + l, convMlp(width, options.depth())));
      skip.add(addChildBlock("skip" + l, conv1x1(width)));
    }
    int pooled = 2 * (options.hidden() * (options.layers() - 1) + options.out());
    head = addChildBlock("head", new SequentialBlock()
        .add(I2GnnNetwork.torchLinear(options.out(), pooled, true))
        .add(options.tanh() ? Activation::tanh : Activation::relu)
        .add(I2GnnNetwork.torchLinear(1, options.out(), true)));
  }

  private static Block convMlp(int width, int depth) {
    SequentialBlock mlp = new SequentialBlock();
    for (int i = 0; i < depth; i++) {
      mlp.add(conv1x1(width)).add(Activation::relu);
    }
    return mlp;
  }

  /** A 1×1 convolution, Xavier-uniform (PyTorch's bound √(6 / (fan-in + fan-out))), zero bias. */
  private static Block conv1x1(int filters) {
    Block conv = Conv2d.builder().setKernelShape(new Shape(1, 1)).setFilters(filters).build();
    conv.setInitializer(new XavierInitializer(XavierInitializer.RandomType.UNIFORM,
        XavierInitializer.FactorType.AVG, 3), Parameter.Type.WEIGHT);
    return conv;
  }

  public Options options() {
    return options;
  }

  @Override
  public String name() {
    return "ppgn";
  }

  @Override
  public Block block() {
    return this;
  }

  @Override
  public Block head() {
    return head;
  }

  @Override
  public NDList inputs(NDManager manager, List<Graph> graphs) {
    int b = graphs.size();
    int n = 1;
    boolean padded = false;
    for (Graph g : graphs) {
      n = Math.max(n, g.n());
    }
    int channels = options.in() + 1;
    int cells = n * n;
    float[] x = new float[b * channels * cells];
    float[] mask = new float[b * cells];
    for (int i = 0; i < b; i++) {
      Graph g = graphs.get(i);
      padded |= g.n() != n;
      int base = i * channels * cells;
      for (int v = 0; v < g.n(); v++) {
        for (int c = 0; c < options.in(); c++) {
          x[base + c * cells + v * n + v] = 1f;
        }
        for (int w = 0; w < g.n(); w++) {
          mask[i * cells + v * n + w] = 1f;
          if (g.adjacent(v, w)) {
            x[base + options.in() * cells + v * n + w] = 1f;
          }
        }
      }
    }
    NDArray features = manager.create(x, new Shape(b, channels, n, n));
    return padded ? new NDList(features, manager.create(mask, new Shape(b, 1, n, n))) : new NDList(features);
  }

  @Override
  public Shape[] inputShapes(NDManager manager) {
    return inputs(manager, List.of(Graph.fromEdges(3, 0, 1, 1, 2))).getShapes();
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList in, boolean training,
      PairList<String, Object> params) {
    NDArray x = in.get(0);
    NDArray mask = in.size() > 1 ? in.get(1) : null;
    long b = x.getShape().get(0);
    int n = (int) x.getShape().get(2);
    NDArray sums = sumSelector(x.getManager(), n);
    NDList pooled = new NDList();
    for (int l = 0; l < left.size(); l++) {
      NDArray m1 = masked(forward1(left.get(l), ps, x, training), mask);
      NDArray m2 = masked(forward1(right.get(l), ps, x, training), mask);
      x = masked(forward1(skip.get(l), ps, x.concat(m1.matMul(m2), 1), training), mask);
      // each block's diagonal and total sums as it ends (B × c × 2), not from one concatenation of
      // every block's n×n output as theirs: the same sums without copying all blocks' cells again
      pooled.add(x.reshape(b, x.getShape().get(1), (long) n * n).matMul(sums));
    }
    NDArray perChannel = NDArrays.concat(pooled, 1);               // B × C × 2: diagonal sum, total sum
    NDArray diagonal = perChannel.get(new NDIndex(":, :, 0"));
    NDArray total = perChannel.get(new NDIndex(":, :, 1"));
    NDArray features = diagonal.concat(total.sub(diagonal), 1);   // B × 2C: diagonal sums, then off-diagonal
    return new NDList(head.forward(ps, new NDList(features), training).singletonOrThrow().reshape(-1));
  }

  /**
   * n² × 2: the diagonal cells' indicator, then ones. A block's cells (B × c × n²) times this are
   * its per-channel diagonal and total sums in one product, whose backward writes each cell's
   * gradient once (where a diagonal mask and a sum would read and write every cell again).
   */
  private static NDArray sumSelector(NDManager manager, int n) {
    float[] selector = new float[n * n * 2];
    for (int cell = 0; cell < n * n; cell++) {
      selector[2 * cell] = cell % (n + 1) == 0 ? 1f : 0f;
      selector[2 * cell + 1] = 1f;
    }
    return manager.create(selector, new Shape((long) n * n, 2));
  }

  private static NDArray masked(NDArray x, NDArray mask) {
    return mask == null ? x : x.mul(mask);
  }

  private static NDArray forward1(Block block, ParameterStore ps, NDArray x, boolean training) {
    return block.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[0].get(0))};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    long in = options.in() + 1;
    for (int l = 0; l < left.size(); l++) {
      long width = l == left.size() - 1 ? options.out() : options.hidden();
      left.get(l).initialize(manager, dataType, new Shape(1, in, 1, 1));
      right.get(l).initialize(manager, dataType, new Shape(1, in, 1, 1));
      skip.get(l).initialize(manager, dataType, new Shape(1, in + width, 1, 1));
      in = width;
    }
    head.initialize(manager, dataType, new Shape(1, 2L * (options.hidden() * (options.layers() - 1L) + options.out())));
  }

  @Override
  public String toString() {
    return "PpgnCounter(" + options + ")";
  }
}
