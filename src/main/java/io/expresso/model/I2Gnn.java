package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * I²-GNN counting a pattern as Campi et al. build it ({@code src/I2GNN/I2GNN.py}): the network
 * {@link I2GnnNetwork} (per-(i, j) subgraphs, label embeddings re-injected at every layer,
 * GatedGraphConv, sums with MLPs per subgraph and per root) and their head
 * {@code fc1 (d → 32), ELU, fc2 (32 → 16), ELU, fc3 (16 → 1)}, the part retrained in the OOD study.
 */
public final class I2Gnn extends AbstractBlock implements GraphRegressor {

  /** 3: the authors' network (version 2 was Expresso's own, now {@link I2GnnBlock}'s; it does not load). */
  private static final byte VERSION = 3;

  private final I2GnnNetwork network;
  private final Block head;

  /** The authors' model (GatedGraphConv, hop labels) of width {@code hidden}, {@code layers} convs, radius {@code hops}. */
  public I2Gnn(int hidden, int layers, int hops) {
    this(new I2GnnNetwork.Options(hidden, layers, hops, I2GnnNetwork.Conv.GATED, I2GnnNetwork.Labels.HOP));
  }

  I2Gnn(I2GnnNetwork.Options options) {
    super(VERSION);
    network = addChildBlock("network", new I2GnnNetwork(options));
    SequentialBlock fc = new SequentialBlock()
        .add(I2GnnNetwork.torchLinear(32, options.hidden(), true)).add(I2Gnn::elu)
        .add(I2GnnNetwork.torchLinear(16, 32, true)).add(I2Gnn::elu)
        .add(I2GnnNetwork.torchLinear(1, 16, true));
    head = addChildBlock("head", fc);
  }

  /** PyTorch's {@code F.elu} (alpha 1). */
  static NDList elu(NDList x) {
    return new NDList(Activation.elu(x.singletonOrThrow(), 1f));
  }

  @Override
  public String name() {
    return "i2gnn";
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
  protected NDList forwardInternal(ParameterStore ps, NDList in, boolean training,
      PairList<String, Object> params) {
    NDArray perGraph = network.forward(ps, in, training).head();
    NDArray out = head.forward(ps, new NDList(perGraph), training).head();
    return new NDList(out.reshape(-1));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[4].get(0))};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    network.initialize(manager, dataType, inputShapes);
    head.initialize(manager, dataType, new Shape(1, network.options().hidden()));
  }

  @Override
  public Shape[] inputShapes(NDManager manager) {
    return network.inputShapes(manager);
  }

  @Override
  public NDList inputs(NDManager manager, List<Graph> graphs) {
    return network.inputs(manager, graphs);
  }

  @Override
  public String toString() {
    return "I2Gnn(" + network.options() + ")";
  }
}
