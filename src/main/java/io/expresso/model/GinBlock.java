package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * GIN-0 (Xu et al. 2019): {@code h ← MLP(h + Σ_{u∈N(v)} h_u)} with constant input features, as
 * BREC feeds unlabelled graphs, and the spec's Laplacian positional encodings beside them; the
 * graph embedding is the sum over layers of a linear map of the layer's sum-pooled node states
 * (jumping knowledge by sum). Optionally residual ({@link ModelSpec#residual}). Bounded by 1-WL by
 * construction (without encodings).
 *
 * <p>Inputs: node features N×(1+pe), neighbour table N×maxDeg, pooling table B×nMax (padding = N).
 */
final class GinBlock extends GraphBlock {

  private final ModelSpec spec;
  private final List<Block> mlps = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();

  GinBlock(ModelSpec spec) {
    this.spec = spec;
    for (int l = 0; l < spec.layers(); l++) {
      mlps.add(addChildBlock("mlp" + l, Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum())));
      readouts.add(addChildBlock("readout" + l, Linear.builder().setUnits(spec.embedding()).build()));
    }
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    return NodeTables.activationBytes(g.n(), g.maxDegree(), spec.hidden(), spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, List<Graph> graphs, float[] peSigns) {
    NodeTables t = NodeTables.of(graphs);
    NDArray x = manager.create(NodeFeatures.constantAndPe(graphs, spec.pe(), peSigns), new Shape(t.nodes(), 1 + spec.pe()));
    return new NDList(x, t.neighbours(manager), t.pooling(manager));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    NDArray neighbours = inputs.get(1);
    NDArray pooling = inputs.get(2);
    NDArray out = null;
    for (int l = 0; l < mlps.size(); l++) {
      NDArray agg = h.add(Gather.sumRows(h, neighbours));
      NDArray next = mlps.get(l).forward(ps, new NDList(agg), training).singletonOrThrow();
      // residual from the second layer on: the first changes the width (1 + pe to hidden)
      h = spec.residual() && l > 0 ? next.add(h) : next;
      NDArray pooled = Gather.sumRows(h, pooling);
      NDArray r = readouts.get(l).forward(ps, new NDList(pooled), training).singletonOrThrow();
      out = out == null ? r : out.add(r);
    }
    return new NDList(out);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    for (int l = 0; l < mlps.size(); l++) {
      mlps.get(l).initialize(manager, dataType, new Shape(1, l == 0 ? 1 + spec.pe() : spec.hidden()));
      readouts.get(l).initialize(manager, dataType, new Shape(1, spec.hidden()));
    }
  }
}
