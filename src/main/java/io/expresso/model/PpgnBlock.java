package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.XavierInitializer;
import ai.djl.util.PairList;
import io.expresso.engine.Scalars;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * PPGN (Maron et al. 2019) on dense tensors B×c×n×n (channels first, as the reference code).
 * Each regular block runs two MLPs of 1×1 convolutions, multiplies their outputs channel-wise as
 * n×n matrices (the step that gives 3-WL power) and mixes the product with the block input by a
 * linear 1×1 skip convolution. Every block contributes an invariant readout mapped linearly to d
 * and summed over blocks. Two variants, one per task:
 *
 * <ul>
 *   <li>{@link Variant#BREC}, pair embeddings, as BREC's own PPGN ({@code
 *       ProvablyPowerfulGraphNetworks_torch}, {@code new_suffix}, {@code depth_of_mlp} 1): a
 *       non-affine batch norm over all cells after every block, diagonal and off-diagonal
 *       <em>max</em> pooling, a non-affine batch norm on the summed embedding. BREC's norms use
 *       PyTorch momentum 1.0, so evaluation mode normalises with the last training batch's
 *       statistics; our default {@code bn-momentum} 0 (DJL's convention) is the same. A slower
 *       running average (PyTorch's usual 0.1) leaves evaluation-mode embeddings that no longer
 *       separate what training separated (see docs/results/brec-ppgn-fidelity.md).
 *   <li>{@link Variant#COUNTING}, count regression, as the PPGN of Campi et al.: MLPs of depth 2,
 *       no normalisation anywhere, diagonal and off-diagonal <em>sums</em> (counts are sums).
 * </ul>
 *
 * <p>Padding cells are zeroed by a mask after every convolution, so they never enter a matrix
 * product; they do count in the training-mode statistics of the cell norm (BREC's batches hold
 * graphs of one size, so there is no padding there).
 *
 * <p>Inputs: features B×2×n×n (adjacency, identity), and a mask B×1×n×n where the batch's graphs
 * differ in size (none where they do not, as in every BREC batch: multiplying by an all-ones mask
 * changed no bit and cost four full-size products per block, forward and backward).
 */
final class PpgnBlock extends GraphBlock {

  /** Which of the two published PPGNs. */
  enum Variant { BREC, COUNTING }

  /** Adjacency and identity; positional encodings add one diagonal channel each. */
  private static final int BASE_CHANNELS = 2;
  /** Excludes masked cells from a max: far below any activation, far above float's minimum. */
  private static final float EXCLUDED = 1e30f;
  /**
   * n×n×hidden float tensors one block leaves alive per graph until its pass ends (DJL frees a
   * pass's intermediates only when the pass ends, in inference too): 13 GiB measured for 35
   * graphs of 198 vertices, 5 blocks of 32, which is 15 per block; 16 leaves a margin.
   */
  private static final int TENSORS_PER_BLOCK = 16;

  private final ModelSpec spec;
  private final Variant variant;
  private final List<Block> left = new ArrayList<>();
  private final List<Block> right = new ArrayList<>();
  private final List<Block> skip = new ArrayList<>();
  private final List<Block> cellNorms = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();
  private final Block outputNorm;

  PpgnBlock(ModelSpec spec, Variant variant) {
    this.spec = spec;
    this.variant = variant;
    int depth = variant == Variant.BREC ? 1 : 2;
    for (int l = 0; l < spec.layers(); l++) {
      left.add(addChildBlock("left" + l, convMlp(spec.hidden(), depth)));
      right.add(addChildBlock("right" + l, convMlp(spec.hidden(), depth)));
      skip.add(addChildBlock("skip" + l, conv1x1(spec.hidden())));
      if (variant == Variant.BREC) {
        cellNorms.add(addChildBlock("norm" + l, plainNorm(spec.bnMomentum())));
      }
      readouts.add(addChildBlock("readout" + l, Linear.builder().setUnits(spec.embedding()).build()));
    }
    outputNorm = variant == Variant.BREC ? addChildBlock("outputNorm", plainNorm(spec.bnMomentum())) : null;
    // The reference code initialises every weight Xavier-normal (biases zero, DJL's default too).
    setInitializer(new XavierInitializer(XavierInitializer.RandomType.GAUSSIAN, XavierInitializer.FactorType.AVG, 1),
        Parameter.Type.WEIGHT);
  }

  private static Block convMlp(int hidden, int depth) {
    SequentialBlock mlp = new SequentialBlock();
    for (int i = 0; i < depth; i++) {
      mlp.add(conv1x1(hidden)).add(Activation.reluBlock());
    }
    return mlp;
  }

  private static Block conv1x1(int filters) {
    return Conv2d.builder().setKernelShape(new Shape(1, 1)).setFilters(filters).build();
  }

  /** BREC's norms: no learned scale or shift ({@code affine=False}). */
  private static Block plainNorm(float momentum) {
    return BatchNorm.builder().optCenter(false).optScale(false).optMomentum(momentum).build();
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    return 4L * maxVertices * maxVertices * spec.hidden() * spec.layers() * TENSORS_PER_BLOCK;
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    int channels = BASE_CHANNELS + spec.pe();
    int b = graphs.size();
    int n = 1;
    for (Graph g : graphs) {
      n = Math.max(n, g.n());
    }
    int cells = n * n;
    boolean padded = false;
    for (Graph g : graphs) {
      padded |= g.n() != n;
    }
    float[] x = new float[b * channels * cells];
    float[] mask = new float[b * cells];
    for (int i = 0; i < b; i++) {
      Graph g = graphs.get(i);
      int adjacency = i * channels * cells;
      int identity = adjacency + cells;
      if (spec.pe() > 0) {
        float[][] pe = NodeFeature.pe(g, spec.pe(), peSigns);
        for (int v = 0; v < g.n(); v++) {
          for (int j = 0; j < spec.pe(); j++) {
            x[identity + (1 + j) * cells + v * n + v] = pe[v][j];
          }
        }
      }
      for (int u = 0; u < g.n(); u++) {
        for (int v = 0; v < g.n(); v++) {
          int cell = u * n + v;
          mask[i * cells + cell] = 1f;
          x[adjacency + cell] = g.adjacent(u, v) ? 1f : 0f;
          x[identity + cell] = u == v ? 1f : 0f;
        }
      }
    }
    NDArray features = manager.create(x, new Shape(b, channels, n, n));
    // graphs of one size (every BREC batch) have no padding: no mask, and no multiplications by it
    return padded ? new NDList(features, manager.create(mask, new Shape(b, 1, n, n))) : new NDList(features);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray x = inputs.get(0);
    NDArray mask = inputs.size() > 1 ? inputs.get(1) : null; // null: no padding
    long n = x.getShape().get(2);
    NDArray eye = x.getManager().eye((int) n).reshape(1, 1, n, n);
    NDArray diagonal = mask == null ? eye : mask.mul(eye);
    NDArray offDiagonal = mask == null ? eye.neg().add(1f) : mask.sub(diagonal);
    // what the max readout subtracts from the cells it leaves out, and whether it keeps any
    NDArray[] diagonalMax = variant == Variant.BREC && mask != null ? maxMask(diagonal) : null;
    NDArray[] offDiagonalMax = variant == Variant.BREC ? maxMask(offDiagonal) : null;
    NDArray out = null;
    // Each intermediate is closed once used, as PyTorch frees a tensor when its last reference goes
    // (autograd keeps its own references to what backward needs). DJL would otherwise hold every one
    // until the pass ends: five blocks' worth of n×n×hidden tensors, fresh pages for every pass.
    for (int l = 0; l < left.size(); l++) {
      NDArray m1 = masked(forward1(left.get(l), ps, x, training), mask);
      NDArray m2 = masked(forward1(right.get(l), ps, x, training), mask);
      NDArray product = m1.matMul(m2);
      free(m1, m2);
      NDArray joined = x.concat(product, 1);
      free(product);
      if (l > 0) {
        free(x); // the previous block's output; block 0's input belongs to the caller
      }
      x = masked(forward1(skip.get(l), ps, joined, training), mask);
      free(joined);
      if (variant == Variant.BREC) {
        NDArray unnormalised = x;
        x = masked(forward1(cellNorms.get(l), ps, x, training), mask);
        free(unnormalised);
      }
      NDArray onDiagonal = variant != Variant.BREC ? sumOver(x, diagonal)
          : mask == null ? maxOverDiagonal(x) : maxOver(x, diagonalMax);
      NDArray elsewhere = variant == Variant.BREC ? maxOver(x, offDiagonalMax) : sumOver(x, offDiagonal);
      NDArray pooled = onDiagonal.concat(elsewhere, 1);
      free(onDiagonal, elsewhere);
      NDArray r = forward1(readouts.get(l), ps, pooled, training);
      free(pooled);
      if (out == null) {
        out = r;
      } else {
        NDArray sum = out.add(r);
        free(out, r);
        out = sum;
      }
    }
    if (left.size() > 0) {
      free(x);
    }
    return new NDList(outputNorm == null ? out : forward1(outputNorm, ps, out, training));
  }

  /** Closes intermediates that nothing reads any more (their memory is reused by the next op). */
  private static void free(NDArray... used) {
    for (NDArray a : used) {
      a.close();
    }
  }

  /** {@code x} with its padding cells zeroed; {@code x} itself is closed when a new array replaces it. */
  private static NDArray masked(NDArray x, NDArray mask) {
    if (mask == null) {
      return x;
    }
    NDArray out = x.mul(mask);
    x.close();
    return out;
  }

  /** The per-channel sum over the cells {@code where} selects (B×c). */
  private static NDArray sumOver(NDArray x, NDArray where) {
    NDArray selected = x.mul(where);
    NDArray sum = selected.sum(new int[] {2, 3});
    selected.close();
    return sum;
  }

  /**
   * The per-channel max over the diagonal of unpadded graphs (B×c): the n diagonal cells taken as a
   * strided view, where {@link #maxOver} would subtract a mask from all n² cells and scan them.
   * The same maximum and, for its gradient, the same cell (the first of equal values in both).
   */
  static NDArray maxOverDiagonal(NDArray x) {
    Shape s = x.getShape();
    long n = s.get(2);
    NDArray cells = x.reshape(s.get(0), s.get(1), n * n);
    NDArray diagonal = cells.get(new NDIndex(":, :, ::" + (n + 1)));
    NDArray max = diagonal.max(new int[] {2});
    free(cells, diagonal);
    return max;
  }

  /** For {@link #maxOver}: EXCLUDED on the cells {@code where} leaves out, and 1 per graph that it selects any. */
  static NDArray[] maxMask(NDArray where) {
    NDArray any = where.sum(new int[] {2, 3}).gt(0).toType(where.getDataType(), false); // B×1
    return new NDArray[] {Scalars.mul(where.neg().add(1f), EXCLUDED), any};
  }

  /** The per-channel max over the cells a {@link #maxMask} selects; 0 where it selects none (n = 1). */
  static NDArray maxOver(NDArray x, NDArray[] where) {
    NDArray masked = x.sub(where[0]);
    NDArray cells = masked.reshape(masked.getShape().get(0), masked.getShape().get(1), -1);
    NDArray max = cells.max(new int[] {2}); // B×c
    free(masked, cells);
    NDArray out = max.mul(where[1]);
    max.close();
    return out;
  }

  private static NDArray forward1(Block block, ParameterStore ps, NDArray x, boolean training) {
    return block.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    for (int l = 0; l < left.size(); l++) {
      int in = l == 0 ? BASE_CHANNELS + spec.pe() : h;
      left.get(l).initialize(manager, dataType, new Shape(1, in, 1, 1));
      right.get(l).initialize(manager, dataType, new Shape(1, in, 1, 1));
      skip.get(l).initialize(manager, dataType, new Shape(1, in + h, 1, 1));
      if (variant == Variant.BREC) {
        cellNorms.get(l).initialize(manager, dataType, new Shape(1, h, 1, 1));
      }
      readouts.get(l).initialize(manager, dataType, new Shape(1, 2L * h));
    }
    if (outputNorm != null) {
      outputNorm.initialize(manager, dataType, new Shape(1, spec.embedding()));
    }
  }
}
