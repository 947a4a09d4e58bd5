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
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * δ-2-LGNN (Morris et al. 2020, "Weisfeiler and Leman go sparse"), the neural local δ-2-WL, as
 * BREC's {@code SparseWL/neural_higher_order/BREC/test_BREC.py} builds its {@code NetGIN} (k = 2,
 * {@code --dim 16}): every ordered pair of vertices is a node ({@link LocalTuples}), its input the
 * one-hot atomic type of the pair (equal, adjacent, neither: {@code get_node_labels} without vertex
 * or edge labels). Each layer runs two GINs with learned ε, one over the position-1 local
 * neighbours and one over the position-2 ones ({@code edge_index_1}, {@code edge_index_2} of
 * {@code generate_local_sparse_am}), each {@code MLP((1 + ε)·h + Σ h_u)}, and merges them with
 * {@code MLP([h₁, h₂])}; every MLP is Linear, BN, ReLU, Linear, BN, ReLU. The read-out is
 * {@link Set2Set} over each graph's tuples (6 steps), then Linear to the width, ReLU, Linear to d.
 * Linear layers start as PyTorch's.
 *
 * <p>Inputs: {@link LocalTuples#toNDList}.
 */
final class DeltaLgnnBlock extends GraphBlock {

  /** Set2Set's {@code processing_steps} in BREC's NetGIN. */
  static final int SET2SET_STEPS = 6;

  private final ModelSpec spec;
  private final List<Block> first = new ArrayList<>();
  private final List<Block> second = new ArrayList<>();
  private final List<Block> merge = new ArrayList<>();
  /** ε of each layer's position-1 and position-2 GIN ({@code GINConv(train_eps=True)}, from 0). */
  private final List<Parameter> eps = new ArrayList<>();
  private final Set2Set set2set;
  private final Block fc1;
  private final Block fc4;

  DeltaLgnnBlock(ModelSpec spec) {
    this.spec = spec;
    int h = spec.hidden();
    for (int l = 0; l < spec.layers(); l++) {
      int in = l == 0 ? Graph.ATOMIC_TYPES : h;
      first.add(mlp("conv" + l + "_1", in));
      second.add(mlp("conv" + l + "_2", in));
      merge.add(mlp("mlp" + l, 2 * h));
      for (String p : List.of("_1", "_2")) {
        eps.add(addParameter(Parameter.builder().setName("eps" + l + p).setType(Parameter.Type.OTHER)
            .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build()));
      }
    }
    set2set = addChildBlock("set2set", new Set2Set(h, SET2SET_STEPS));
    fc1 = addChildBlock("fc1", Linear.builder().setUnits(h).build());
    fc4 = addChildBlock("fc4", Linear.builder().setUnits(spec.embedding()).build());
    PyTorchInit.linear(fc1, 2 * h);
    PyTorchInit.linear(fc4, h);
  }

  private Block mlp(String name, int in) {
    Block b = Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum());
    PyTorchInit.linears(b, in, spec.hidden());
    return addChildBlock(name, b);
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // two GINs and the merging MLP over every tuple per layer
    return 3 * NodeTables.activationBytes((long) g.n() * g.n(), g.maxDegree(), spec.hidden(), spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    return LocalTuples.of(batch.graphs()).toNDList(manager);
  }

  private NDArray gin(ParameterStore ps, Block mlp, Parameter e, NDArray h, NDArray neighbours, boolean training) {
    NDArray self = h.mul(PassValues.of(ps, e, h, training).add(1f));
    return mlp.forward(ps, new NDList(self.add(Gather.sumRows(h, neighbours))), training).singletonOrThrow();
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    NDArray neighbours1 = inputs.get(1);
    NDArray neighbours2 = inputs.get(2);
    NDArray graphRows = inputs.get(3);
    NDArray mask = inputs.get(4);
    for (int l = 0; l < merge.size(); l++) {
      // NetGIN's F.relu after each GINConv is a no-op on the MLP's closing ReLU
      NDArray h1 = gin(ps, first.get(l), eps.get(2 * l), h, neighbours1, training);
      NDArray h2 = gin(ps, second.get(l), eps.get(2 * l + 1), h, neighbours2, training);
      h = merge.get(l).forward(ps, new NDList(h1.concat(h2, 1)), training).singletonOrThrow();
    }
    long b = graphRows.getShape().get(0);
    long m = graphRows.getShape().get(1);
    NDArray sets = Gather.sumRows(h, graphRows.reshape(-1, 1)).reshape(b, m, spec.hidden());
    NDArray pooled = set2set.forward(ps, new NDList(sets, mask), training).singletonOrThrow();
    NDArray z = Activation.relu(fc1.forward(ps, new NDList(pooled), training).singletonOrThrow());
    return fc4.forward(ps, new NDList(z), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int h = spec.hidden();
    for (int l = 0; l < merge.size(); l++) {
      int in = l == 0 ? Graph.ATOMIC_TYPES : h;
      first.get(l).initialize(manager, dataType, new Shape(1, in));
      second.get(l).initialize(manager, dataType, new Shape(1, in));
      merge.get(l).initialize(manager, dataType, new Shape(1, 2L * h));
    }
    set2set.initialize(manager, dataType, new Shape(1, 1, h), new Shape(1, 1));
    fc1.initialize(manager, dataType, new Shape(1, 2L * h));
    fc4.initialize(manager, dataType, new Shape(1, h));
  }
}
