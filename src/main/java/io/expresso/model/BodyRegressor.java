package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * A count regressor made of one of the built-in architectures (a graph embedding of width d, built
 * for {@link Architecture.Role#COUNT_REGRESSION}) and a final MLP d → hidden → 1, the part retrained
 * in the OOD study.
 */
final class BodyRegressor extends AbstractBlock implements GraphRegressor {

  private final ModelSpec spec;
  private final GraphBlock body;
  private final Block head;
  /** Optional graph-level batch norm between body and head ({@code readout-norm=batch}); null without. */
  private final Block readoutNorm;

  BodyRegressor(ModelSpec spec, boolean readoutBatchNorm) {
    super((byte) 1);
    this.spec = spec;
    this.readoutNorm = readoutBatchNorm ? addChildBlock("readoutNorm", BatchNorm.builder().build()) : null;
    this.body = addChildBlock("body", spec.architecture().block(spec, Architecture.Role.COUNT_REGRESSION));
    this.head = addChildBlock("head", new SequentialBlock()
        .add(Linear.builder().setUnits(spec.hidden()).build())
        .add(Activation::relu)
        .add(Linear.builder().setUnits(1).build()));
  }

  @Override
  public String name() {
    return spec.architecture().cliName();
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
    return body.encode(manager, graphs);
  }

  @Override
  public Shape[] inputShapes(NDManager manager) {
    return new Shape[] {new Shape(1)}; // the body initialises from its spec, not from shapes
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training,
      PairList<String, Object> params) {
    NDList emb = body.forward(ps, inputs, training);
    if (readoutNorm != null) {
      emb = readoutNorm.forward(ps, emb, training);
    }
    return new NDList(head.forward(ps, emb, training).singletonOrThrow().reshape(-1));
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    body.initialize(manager, dataType, new Shape(1));
    if (readoutNorm != null) {
      readoutNorm.initialize(manager, dataType, new Shape(1, body.outputSize()));
    }
    head.initialize(manager, dataType, new Shape(1, body.outputSize()));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(-1)};
  }
}
