package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;

/** An embedding network followed by a linear map to one number per graph (counting tasks). */
final class ScalarHeadBlock extends GraphBlock {

  private final GraphBlock body;
  private final Block head;

  ScalarHeadBlock(GraphBlock body) {
    this.body = addChildBlock("body", body);
    this.head = addChildBlock("head", Linear.builder().setUnits(1).build());
  }

  @Override
  public int outputSize() {
    return 1;
  }

  @Override
  public int paddedSize(Graph g) {
    return body.paddedSize(g);
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    return body.bytesPerGraph(g, maxVertices);
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    return body.encode(manager, batch, peSigns);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDList emb = body.forward(ps, inputs, training);
    return new NDList(head.forward(ps, emb, training).singletonOrThrow().reshape(-1));
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    body.initialize(manager, dataType, new Shape(1));
    head.initialize(manager, dataType, new Shape(1, body.outputSize()));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(-1)};
  }
}
