package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
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
 * GIN (Xu et al. 2019): {@code h ← MLP((1 + ε)·h + Σ_{u∈N(v)} h_u)} with constant input features, as
 * BREC feeds unlabelled graphs, and beside them one-hot node-label columns
 * ({@link ModelSpec#nodeLabels}, as the GIN paper feeds TU node labels) and the spec's Laplacian
 * positional encodings; the
 * graph embedding is the sum over layers of a linear map of the layer's sum-pooled node states
 * (jumping knowledge by sum). ε is 0 (GIN-0, BREC's) unless the spec learns it
 * ({@link ModelSpec#learnEps}). With {@link ModelSpec#residual} it is benchmarking-gnns' reference
 * GIN: the input is first embedded to the hidden width, every layer adds its input to its output,
 * the embedding's read-out joins the sum, and linear layers start as PyTorch's ({@link PyTorchInit});
 * without it, BREC's GIN-0 keeps DJL's initialisation, with which its BREC results were recorded.
 * Bounded by 1-WL by construction (without encodings).
 *
 * <p>Inputs: node features N×(1+node-labels+pe), neighbour table N×maxDeg, pooling table B×nMax
 * (padding = N).
 */
final class GinBlock extends GraphBlock {

  private final ModelSpec spec;
  /** The residual form's input embedding and its read-out; null without it. */
  private final Block embedding;
  private final Block embeddingReadout;
  private final List<Block> mlps = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();
  /** One ε per layer when learned; empty for GIN-0. */
  private final List<Parameter> eps = new ArrayList<>();

  GinBlock(ModelSpec spec) {
    this.spec = spec;
    int in = NodeFeature.width(spec.nodeLabels(), spec.pe());
    if (spec.residual()) {
      embedding = addChildBlock("embedding", Linear.builder().setUnits(spec.hidden()).build());
      embeddingReadout = addChildBlock("readout-embedding", Linear.builder().setUnits(spec.embedding()).build());
      PyTorchInit.linear(embedding, in);
      PyTorchInit.linear(embeddingReadout, spec.hidden());
      in = spec.hidden();
    } else {
      embedding = null;
      embeddingReadout = null;
    }
    for (int l = 0; l < spec.layers(); l++) {
      Block mlp = addChildBlock("mlp" + l, Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum()));
      Block readout = addChildBlock("readout" + l, Linear.builder().setUnits(spec.embedding()).build());
      if (spec.residual()) {
        PyTorchInit.linears(mlp, in, spec.hidden());
        PyTorchInit.linear(readout, spec.hidden());
      }
      mlps.add(mlp);
      readouts.add(readout);
      if (spec.learnEps()) {
        eps.add(addParameter(Parameter.builder().setName("eps" + l).setType(Parameter.Type.OTHER)
            .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build()));
      }
    }
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    return NodeTables.activationBytes(g.n(), g.maxDegree(), spec.hidden(), spec.layers() + (spec.residual() ? 1 : 0));
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    NodeTables t = NodeTables.of(batch.graphs());
    NDArray x = manager.create(NodeFeature.table(batch, spec.nodeLabels(), spec.pe(), peSigns),
        new Shape(t.nodes(), NodeFeature.width(spec.nodeLabels(), spec.pe())));
    return new NDList(x, t.neighbours(manager), t.pooling(manager));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    NDArray neighbours = inputs.get(1);
    NDArray pooling = inputs.get(2);
    NDArray out = null;
    if (embedding != null) {
      h = embedding.forward(ps, new NDList(h), training).singletonOrThrow();
      out = embeddingReadout.forward(ps, new NDList(Gather.sumRows(h, pooling)), training).singletonOrThrow();
    }
    for (int l = 0; l < mlps.size(); l++) {
      NDArray self = eps.isEmpty() ? h : h.mul(PassValues.of(ps, eps.get(l), h, training).add(1f));
      NDArray agg = self.add(Gather.sumRows(h, neighbours));
      NDArray next = mlps.get(l).forward(ps, new NDList(agg), training).singletonOrThrow();
      h = embedding != null ? next.add(h) : next;
      NDArray pooled = Gather.sumRows(h, pooling);
      NDArray r = readouts.get(l).forward(ps, new NDList(pooled), training).singletonOrThrow();
      out = out == null ? r : out.add(r);
    }
    return new NDList(out);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int in = NodeFeature.width(spec.nodeLabels(), spec.pe());
    if (embedding != null) {
      embedding.initialize(manager, dataType, new Shape(1, in));
      embeddingReadout.initialize(manager, dataType, new Shape(1, spec.hidden()));
      in = spec.hidden();
    }
    for (int l = 0; l < mlps.size(); l++) {
      mlps.get(l).initialize(manager, dataType, new Shape(1, l == 0 ? in : spec.hidden()));
      readouts.get(l).initialize(manager, dataType, new Shape(1, spec.hidden()));
    }
  }
}
