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
import java.util.ArrayList;
import java.util.List;

/**
 * PPGN (Maron et al. 2019) on padded dense tensors B×n×n×c (channels last). Each block computes
 * two MLPs over the channel axis, multiplies them channel-wise as n×n matrices (the step that
 * gives 3-WL power), and mixes the product with the block input by a linear skip layer. Every
 * block contributes an invariant readout: the mean of the diagonal and the mean of the
 * off-diagonal entries, batch-normalised across the graphs of the batch, mapped linearly to d and
 * summed over blocks. The batch norm removes the component shared by all graphs, which otherwise
 * pins the cosine between G's and H's embeddings near 1 and leaves the siamese loss nothing to
 * descend; in evaluation mode it is a fixed per-channel affine map (running statistics).
 *
 * <p>Padding rows/columns are zeroed by a mask after every MLP, so a graph's embedding does not
 * depend on the batch it sits in. The matrix product is divided by n (a graph invariant) to keep
 * magnitudes bounded on large graphs without changing what the model can tell apart.
 *
 * <p>Inputs: features B×n×n×2 (adjacency, identity), mask B×n×n×1, 1/n as B×1×1×1.
 */
final class PpgnBlock extends GraphBlock {

  private static final int INPUT_CHANNELS = 2;

  private final ModelSpec spec;
  private final List<Block> left = new ArrayList<>();
  private final List<Block> right = new ArrayList<>();
  private final List<Block> skip = new ArrayList<>();
  private final List<Block> norms = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();

  PpgnBlock(ModelSpec spec) {
    this.spec = spec;
    for (int l = 0; l < spec.layers(); l++) {
      left.add(addChildBlock("left" + l, Mlp.plain(spec.hidden())));
      right.add(addChildBlock("right" + l, Mlp.plain(spec.hidden())));
      skip.add(addChildBlock("skip" + l, Linear.builder().setUnits(spec.hidden()).build()));
      norms.add(addChildBlock("norm" + l, BatchNorm.builder().optMomentum(spec.bnMomentum()).build()));
      readouts.add(addChildBlock("readout" + l, Linear.builder().setUnits(spec.embedding()).build()));
    }
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public NDList encode(NDManager manager, List<Graph> graphs) {
    int b = graphs.size();
    int n = 1;
    for (Graph g : graphs) {
      n = Math.max(n, g.n());
    }
    float[] x = new float[b * n * n * INPUT_CHANNELS];
    float[] mask = new float[b * n * n];
    float[] inv = new float[b];
    for (int i = 0; i < b; i++) {
      Graph g = graphs.get(i);
      inv[i] = 1f / Math.max(1, g.n());
      for (int u = 0; u < g.n(); u++) {
        for (int v = 0; v < g.n(); v++) {
          int cell = (i * n + u) * n + v;
          mask[cell] = 1f;
          x[cell * INPUT_CHANNELS] = g.adjacent(u, v) ? 1f : 0f;
          x[cell * INPUT_CHANNELS + 1] = u == v ? 1f : 0f;
        }
      }
    }
    return new NDList(
        manager.create(x, new Shape(b, n, n, INPUT_CHANNELS)),
        manager.create(mask, new Shape(b, n, n, 1)),
        manager.create(inv, new Shape(b, 1, 1, 1)));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray x = inputs.get(0);
    NDArray mask = inputs.get(1);
    NDArray inv = inputs.get(2);
    long b = x.getShape().get(0);
    long n = x.getShape().get(1);
    NDArray eye = x.getManager().eye((int) n).reshape(1, n, n, 1);
    NDArray invFlat = inv.reshape(b, 1);
    NDArray out = null;
    for (int l = 0; l < left.size(); l++) {
      NDArray m1 = forward1(left.get(l), ps, x, training).mul(mask);
      NDArray m2 = forward1(right.get(l), ps, x, training).mul(mask);
      NDArray prod = m1.transpose(0, 3, 1, 2).matMul(m2.transpose(0, 3, 1, 2))
          .transpose(0, 2, 3, 1).mul(inv);
      x = Activation.relu(forward1(skip.get(l), ps, x.concat(prod, 3), training)).mul(mask);
      NDArray all = x.sum(new int[] {1, 2});
      NDArray diag = x.mul(eye).sum(new int[] {1, 2});
      NDArray diagMean = diag.mul(invFlat);
      NDArray offMean = all.sub(diag).mul(invFlat).mul(invFlat);
      NDArray pooled = forward1(norms.get(l), ps, diagMean.concat(offMean, 1), training);
      NDArray r = forward1(readouts.get(l), ps, pooled, training);
      out = out == null ? r : out.add(r);
    }
    return new NDList(out);
  }

  private static NDArray forward1(Block block, ParameterStore ps, NDArray x, boolean training) {
    return block.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    for (int l = 0; l < left.size(); l++) {
      int in = l == 0 ? INPUT_CHANNELS : h;
      left.get(l).initialize(manager, dataType, new Shape(1, in));
      right.get(l).initialize(manager, dataType, new Shape(1, in));
      skip.get(l).initialize(manager, dataType, new Shape(1, in + h));
      norms.get(l).initialize(manager, dataType, new Shape(1, 2L * h));
      readouts.get(l).initialize(manager, dataType, new Shape(1, 2L * h));
    }
  }
}
