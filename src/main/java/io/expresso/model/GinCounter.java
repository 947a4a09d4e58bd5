package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.Initializer;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * GIN counting a pattern as Campi et al. build it ({@code src/baseline/model_gcn.py}, class
 * {@code GIN}): node features all ones of width {@code in}; {@code layers} PyG {@code GINConv}s
 * with a learnable ε starting at 0 ({@code GINConv(mlp, 0, True, aggr)}: h' = MLP((1 + ε)·h +
 * aggr_{u∈N(v)} h_u)), the first in → hidden, the middle ones hidden → hidden, the last hidden →
 * out; each MLP Linear(→ 2·hidden), act, [BatchNorm], Linear, act, [BatchNorm] (their
 * {@code create_conv}, called with 2·hidden as its hidden width); with {@code concat} every conv's
 * output concatenated (hidden·(layers − 1) + out), else the last; pooled over the graph's nodes
 * (add, mean or max); the final MLP Linear(→ out), act, Linear(out → 1) (the part retrained in the
 * OOD study). One activation module throughout, PyTorch's default Linear initialisation (uniform
 * ±1/√fan-in), BatchNorm as PyTorch's (momentum 0.1 = DJL's 0.9, eps 1e-5). Their dropout is 0
 * in every run their pipeline makes ({@code GNN_train.py} never passes it): left out.
 */
public final class GinCounter extends AbstractBlock implements GraphRegressor {

  /** 2: version 1 was Expresso's own GIN count regressor (BodyRegressor), whose checkpoints do not load. */
  private static final byte VERSION = 2;

  /** Their {@code act}: one module applied after every Linear but the last. */
  public enum Act {
    RELU, TANH, ELU, SOFTMAX;

    /** {@code nn.Softmax()} without {@code dim} on the 2-D tensors it meets here takes dim 1 (PyTorch's legacy rule). */
    NDArray apply(NDArray x) {
      return switch (this) {
        case RELU -> Activation.relu(x);
        case TANH -> Activation.tanh(x);
        case ELU -> Activation.elu(x, 1f);
        case SOFTMAX -> x.softmax(1);
      };
    }
  }

  /** Their {@code pooling}: PyG's {@code global_add_pool}, {@code global_mean_pool}, {@code global_max_pool}. */
  public enum Pool { ADD, MEAN, MAX }

  /** Their {@code aggr}, {@code GINConv}'s neighbourhood aggregation. */
  public enum Aggr { ADD, MEAN }

  /**
   * The constructor's arguments ({@code GIN(in_channels, hidden_channels, num_layers, out_channels,
   * act, pooling, dropout=0, concat, aggr, batch_norm)}).
   *
   * @param in {@code in_channels}: width of the all-ones node features (their grid's channels[0])
   * @param hidden {@code hidden_channels}
   * @param out {@code out_channels}: the last conv's width and the final MLP's
   * @param layers {@code num_layers}, at least 2 (their constructor always builds a first and a last conv)
   * @param act the activation
   * @param pool the graph read-out
   * @param aggr the convs' aggregation
   * @param concat {@code concat}: every conv's output to the read-out (jumping knowledge by concatenation)
   * @param batchNorm {@code batch_norm}: a BatchNorm after each activation inside the convs' MLPs
   */
  public record Options(int in, int hidden, int out, int layers, Act act, Pool pool, Aggr aggr, boolean concat,
      boolean batchNorm) {
    public Options {
      if (in < 1 || hidden < 1 || out < 1 || layers < 2) {
        throw new IllegalArgumentException("GIN needs in, hidden, out >= 1 and layers >= 2, got in=" + in + ", hidden="
            + hidden + ", out=" + out + ", layers=" + layers);
      }
    }

    /** Width of the read-out: every conv's output with {@code concat}, else the last's. */
    int readoutWidth() {
      return concat ? hidden * (layers - 1) + out : out;
    }
  }

  private final Options options;
  private final List<Block> mlps = new ArrayList<>();
  private final List<Parameter> eps = new ArrayList<>();
  private final Block head;

  public GinCounter(Options options) {
    super(VERSION);
    this.options = options;
    for (int l = 0; l < options.layers(); l++) {
      int in = l == 0 ? options.in() : options.hidden();
      int out = l == options.layers() - 1 ? options.out() : options.hidden();
      mlps.add(addChildBlock("conv" + l, convMlp(in, 2 * options.hidden(), out)));
      eps.add(addParameter(Parameter.builder().setName("eps" + l).setType(Parameter.Type.OTHER)
          .optShape(new Shape(1)).optInitializer(Initializer.ZEROS).build()));
    }
    Function<NDList, NDList> act = x -> new NDList(options.act().apply(x.singletonOrThrow()));
    head = addChildBlock("head", new SequentialBlock()
        .add(I2GnnNetwork.torchLinear(options.out(), options.readoutWidth(), true))
        .add(act)
        .add(I2GnnNetwork.torchLinear(1, options.out(), true)));
  }

  /** Their {@code create_conv}'s MLP. */
  private Block convMlp(int in, int width, int out) {
    Function<NDList, NDList> act = x -> new NDList(options.act().apply(x.singletonOrThrow()));
    SequentialBlock mlp = new SequentialBlock().add(I2GnnNetwork.torchLinear(width, in, true)).add(act);
    if (options.batchNorm()) {
      mlp.add(BatchNorm.builder().build());
    }
    mlp.add(I2GnnNetwork.torchLinear(out, width, true)).add(act);
    if (options.batchNorm()) {
      mlp.add(BatchNorm.builder().build());
    }
    return mlp;
  }

  public Options options() {
    return options;
  }

  @Override
  public String name() {
    return "gin";
  }

  @Override
  public Block block() {
    return this;
  }

  @Override
  public Block head() {
    return head;
  }

  /**
   * Node features N×in (ones), the neighbour table N×maxDeg and its inverse degrees N×1, the
   * pooling table B×nMax and its inverse sizes B×1 (tables padded with N, {@link Gather}).
   */
  @Override
  public NDList inputs(NDManager manager, List<Graph> graphs) {
    NodeTables t = NodeTables.of(graphs);
    float[] inverseDegree = new float[t.nodes()];
    for (int v = 0; v < t.nodes(); v++) {
      int d = t.neighbourRows()[v].length;
      inverseDegree[v] = d == 0 ? 0f : 1f / d;
    }
    float[] inverseSize = new float[graphs.size()];
    for (int b = 0; b < graphs.size(); b++) {
      int n = t.poolRows()[b].length;
      inverseSize[b] = n == 0 ? 0f : 1f / n;
    }
    return new NDList(manager.ones(new Shape(t.nodes(), options.in())), t.neighbours(manager),
        manager.create(inverseDegree, new Shape(t.nodes(), 1)), t.pooling(manager),
        manager.create(inverseSize, new Shape(graphs.size(), 1)));
  }

  @Override
  public Shape[] inputShapes(NDManager manager) {
    return inputs(manager, List.of(Graph.fromEdges(3, 0, 1, 1, 2))).getShapes();
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList in, boolean training,
      PairList<String, Object> params) {
    NDArray h = in.get(0);
    NDArray neighbours = in.get(1);
    NDArray pooling = in.get(3);
    NDList outputs = new NDList();
    for (int l = 0; l < mlps.size(); l++) {
      NDArray aggregated = Gather.sumRows(h, neighbours);
      if (options.aggr() == Aggr.MEAN) {
        aggregated = aggregated.mul(in.get(2));
      }
      NDArray self = h.mul(PassValues.of(ps, eps.get(l), h, training).add(1f));
      h = mlps.get(l).forward(ps, new NDList(self.add(aggregated)), training).singletonOrThrow();
      outputs.add(h);
    }
    NDArray x = options.concat() ? NDArrays.concat(outputs, 1) : h;
    NDArray pooled = switch (options.pool()) {
      case ADD -> Gather.sumRows(x, pooling);
      case MEAN -> Gather.sumRows(x, pooling).mul(in.get(4));
      case MAX -> maxRows(x, pooling);
    };
    return new NDList(head.forward(ps, new NDList(pooled), training).singletonOrThrow().reshape(-1));
  }

  /** {@code max_j x[idx[k, j]]} per k, padding never chosen; a graph without nodes pools to 0 (as PyG's scatter max). */
  private static NDArray maxRows(NDArray x, NDArray idx) {
    long f = x.getShape().get(1);
    long k = idx.getShape().get(0);
    long m = idx.getShape().get(1);
    NDArray padded = x.concat(x.getManager().full(new Shape(1, f), Float.NEGATIVE_INFINITY, x.getDataType()), 0);
    NDArray flat = idx.reshape(-1, 1).broadcast(new Shape(k * m, f));
    NDArray max = padded.gather(flat, 0).reshape(k, m, f).max(new int[] {1});
    return NDArrays.where(max.isInfinite(), max.zerosLike(), max);
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[3].get(0))};
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    for (int l = 0; l < mlps.size(); l++) {
      mlps.get(l).initialize(manager, dataType, new Shape(1, l == 0 ? options.in() : options.hidden()));
    }
    head.initialize(manager, dataType, new Shape(1, options.readoutWidth()));
  }

  @Override
  public String toString() {
    return "GinCounter(" + options + ")";
  }
}
