package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.UniformInitializer;
import ai.djl.util.PairList;

/**
 * OSAN's subgraph scorer as BREC's {@code OSAN/models/GCN_embd.py} builds it for the edge policy
 * ({@code GCN_emb}, {@code encoder=True}, {@code normalize=False}): the constant vertex input's
 * AtomEncoder row, three GCN convolutions without self loops ({@code Σ_j x_j / √((d_i+1)(d_j+1))}
 * after a linear map), ReLU then batch norm after the first two, and per directed edge (u, v) the
 * logits {@code lin_edge(BN(ReLU(edge_updating(x_u + x_v))))}, one column per sampled subgraph.
 *
 * <p>Not built, as no BREC input reaches the loss through them: the bond encoder and the three
 * {@code edge_encoder}s (BREC's graphs carry no edge features), and {@code bn3}/{@code lin_node},
 * whose vertex logits only the node policies read.
 *
 * <p>Inputs: the neighbour table N×maxDeg (padding N), 1/√(d+1) per vertex (N×1), and the directed
 * edges' source and target rows (E each). Output: E×columns logits.
 */
final class EdgeScorer extends AbstractBlock {

  /** The AtomEncoder's first table has 119 rows: xavier_uniform's bound over a 119 × width table. */
  private static final int ATOM_ROWS = 119;

  private final int width;
  private final int columns;
  private final Block atom;
  private final Block[] convs = new Block[3];
  private final Block[] norms = new Block[2];
  private final Block edgeUpdating;
  private final Block edgeNorm;
  private final Block edgeLogits;

  EdgeScorer(int width, int columns, float bnMomentum) {
    super((byte) 1);
    this.width = width;
    this.columns = columns;
    atom = addChildBlock("atom", Linear.builder().setUnits(width).optBias(false).build());
    atom.setInitializer(new UniformInitializer((float) Math.sqrt(6.0 / (ATOM_ROWS + width))), Parameter.Type.WEIGHT);
    for (int c = 0; c < 3; c++) {
      convs[c] = addChildBlock("conv" + c, Linear.builder().setUnits(width).build());
      PyTorchInit.linear(convs[c], width);
    }
    for (int c = 0; c < 2; c++) {
      norms[c] = addChildBlock("bn" + c, BatchNorm.builder().optMomentum(bnMomentum).build());
    }
    edgeUpdating = addChildBlock("edgeUpdating", Linear.builder().setUnits(width).build());
    PyTorchInit.linear(edgeUpdating, width);
    edgeNorm = addChildBlock("edgeBn", BatchNorm.builder().optMomentum(bnMomentum).build());
    edgeLogits = addChildBlock("linEdge", Linear.builder().setUnits(columns).build());
    PyTorchInit.linear(edgeLogits, width);
  }

  @Override
  protected NDList forwardInternal(ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray neighbours = inputs.get(0);
    NDArray invSqrtDegree = inputs.get(1);
    NDArray src = inputs.get(2);
    NDArray dst = inputs.get(3);
    long n = neighbours.getShape().get(0);
    NDArray x = atom.forward(ps, new NDList(invSqrtDegree.getManager().ones(new Shape(n, 1))), training)
        .singletonOrThrow();
    for (int c = 0; c < 3; c++) {
      NDArray y = convs[c].forward(ps, new NDList(x), training).singletonOrThrow().mul(invSqrtDegree);
      x = Gather.sumRows(y, neighbours).mul(invSqrtDegree);
      if (c < 2) {
        x = norms[c].forward(ps, new NDList(Activation.relu(x)), training).singletonOrThrow();
      }
    }
    NDArray e = edgeUpdating.forward(ps, new NDList(rows(x, src).add(rows(x, dst))), training).singletonOrThrow();
    e = edgeNorm.forward(ps, new NDList(Activation.relu(e)), training).singletonOrThrow();
    return edgeLogits.forward(ps, new NDList(e), training);
  }

  /** {@code h[idx]}: the rows an index vector names. */
  static NDArray rows(NDArray h, NDArray idx) {
    long f = h.getShape().get(1);
    return h.gather(idx.reshape(-1, 1).broadcast(new Shape(idx.getShape().get(0), f)), 0);
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    atom.initialize(manager, dataType, new Shape(1, 1));
    for (Block c : convs) {
      c.initialize(manager, dataType, new Shape(1, width));
    }
    for (Block b : norms) {
      b.initialize(manager, dataType, new Shape(1, width));
    }
    edgeUpdating.initialize(manager, dataType, new Shape(1, width));
    edgeNorm.initialize(manager, dataType, new Shape(1, width));
    edgeLogits.initialize(manager, dataType, new Shape(1, width));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(-1, columns)};
  }
}
