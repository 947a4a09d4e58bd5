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
 * I²-GNN as a pair embedder: the count regressor {@link I2Gnn}'s network (per root i and
 * neighbour j the {@code radius}-hop subgraph around i with i and j marked and distance-encoded, an
 * inner GIN, sums per subgraph, root and graph) with a linear map to d in place of the count head.
 * Subgraphs and pooling are {@link I2Gnn#subgraphs} and {@link I2Gnn#pooled}, written once.
 */
final class I2GnnBlock extends GraphBlock {

  private final ModelSpec spec;
  private final List<Block> inner = new ArrayList<>();
  private final Block rootMlp;
  private final Block readout;

  I2GnnBlock(ModelSpec spec) {
    this.spec = spec;
    for (int l = 0; l < spec.layers(); l++) {
      inner.add(addChildBlock("inner" + l, I2Gnn.mlp(spec.hidden(), spec.hidden())));
    }
    rootMlp = addChildBlock("root", I2Gnn.mlp(spec.hidden(), spec.hidden()));
    readout = addChildBlock("readout", Linear.builder().setUnits(spec.embedding()).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public int paddedSize(Graph g) {
    return I2Gnn.largestBall(g, I2Gnn.balls(g, spec.radius()));
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // 2m dense subgraphs of the batch's largest ball: the adjacency, and per layer about 8
    // (hidden + labels)-wide float rows per subgraph node (input, matmul, MLP stages, gradients)
    long subgraphs = Math.max(1, 2L * g.m());
    long n = maxVertices;
    long width = spec.hidden() + I2Gnn.features(spec.radius()) + spec.pe();
    return 4L * subgraphs * (n * n + 8L * n * width * spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    return I2Gnn.subgraphs(manager, batch.graphs(), spec.radius(), spec.pe(), peSigns);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray perGraph = I2Gnn.pooled(ps, inputs, inner, rootMlp, training);
    return readout.forward(ps, new NDList(perGraph), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int labels = I2Gnn.features(spec.radius()) + spec.pe(); // re-injected with the marks at every layer
    for (int l = 0; l < inner.size(); l++) {
      inner.get(l).initialize(manager, dataType, new Shape(1, 1, l == 0 ? labels : spec.hidden() + labels));
    }
    rootMlp.initialize(manager, dataType, new Shape(1, (long) spec.hidden() * spec.layers()));
    readout.initialize(manager, dataType, new Shape(1, spec.hidden()));
  }
}
