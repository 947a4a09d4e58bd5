package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.engine.Scalars;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * DS-GNN and DSS-GNN (Bevilacqua et al. 2022, ESAN) as BREC's {@code SUN/test_BREC_ds.py} and
 * {@code test_BREC_dss.py} build them with policy {@code ego_nets_plus}, {@code --gnn_type=originalgin
 * --jk=last --channels=64-64}: one subgraph per root vertex, holding every vertex of the graph but only
 * the edges inside the root's {@code radius}-hop ball, with ESAN's three input columns (is-root,
 * is-not-root, the constant 1). A GIN layer is ESAN's {@code OriginalGINConv} (Linear, BatchNorm,
 * ReLU, Linear) and the batch norm after it; linear layers start as PyTorch's.
 *
 * <ul>
 *   <li>{@link Variant#DS}: the GIN (a ReLU after every layer) runs on every subgraph independently;
 *       each subgraph is sum-pooled (ESAN pools by sum for a GIN other than its {@code gin}), then two
 *       DeepSets layers of width {@value #DEEPSETS_WIDTH} (each {@code elu(W₁ h_S + W₂ mean_S' h_S')}),
 *       the mean over subgraphs and a final MLP.
 *   <li>{@link Variant#DSS}: every layer adds a second GIN on the original graph over each vertex's
 *       mean across subgraphs: {@code x ← relu(GIN₁(x on S) + GIN₂(mean_S x on G)[v])}; then the
 *       subgraph mean, the mean over subgraphs and a final MLP.
 * </ul>
 *
 * <p>Inputs: features M×3 (M = Σ n² subgraph nodes), subgraph neighbour table M×maxDeg, subgraph
 * pooling R×n (R = Σ n subgraphs), 1/n per subgraph R×1 (also per vertex: a graph has as many
 * subgraphs as vertices, in the same rows), graph pooling B×nMax over subgraphs, 1/n per graph
 * B×1, each subgraph's graph R×1; DSS adds each vertex's n copies R×n, the original graphs'
 * neighbour table R×maxDeg and each subgraph node's vertex M×1.
 */
final class EgoSubgraphBlock extends GraphBlock {

  enum Variant { DS, DSS }

  /** ESAN's {@code --channels=64-64}, BREC's setting for DS-GNN. */
  static final int DEEPSETS_WIDTH = 64;

  private final ModelSpec spec;
  private final Variant variant;
  private final List<Block> subgraphGins = new ArrayList<>();
  private final List<Block> graphGins = new ArrayList<>();
  private final List<Block> deepSetsSelf = new ArrayList<>();
  private final List<Block> deepSetsMean = new ArrayList<>();
  private final Block fin;

  EgoSubgraphBlock(ModelSpec spec, Variant variant) {
    this.spec = spec;
    this.variant = variant;
    for (int l = 0; l < spec.layers(); l++) {
      int in = l == 0 ? inputWidth() : spec.hidden();
      // DS: GNN_node's ReLU after every layer; DSS: the ReLU comes after the two GINs' sum
      subgraphGins.add(addChildBlock("gin" + l, pytorchInit(variant == Variant.DS
          ? Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum()) : Mlp.ginThenNorm(spec.hidden(), spec.bnMomentum()),
          in, spec.hidden())));
      if (variant == Variant.DSS) {
        graphGins.add(addChildBlock("ginSum" + l,
            pytorchInit(Mlp.ginThenNorm(spec.hidden(), spec.bnMomentum()), in, spec.hidden())));
      }
    }
    if (variant == Variant.DS) {
      for (int l = 0; l < 2; l++) {
        int in = l == 0 ? spec.hidden() : DEEPSETS_WIDTH;
        deepSetsSelf.add(addChildBlock("set" + l, linear(DEEPSETS_WIDTH, in)));
        deepSetsMean.add(addChildBlock("setMean" + l, linear(DEEPSETS_WIDTH, in)));
      }
    }
    int width = finalWidth();
    fin = addChildBlock("final", pytorchInit(new SequentialBlock()
        .add(Linear.builder().setUnits(2L * width).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(spec.embedding()).build()), width, 2 * width));
  }

  private static Block pytorchInit(Block sequence, int fanIn, int width) {
    PyTorchInit.linears(sequence, fanIn, width);
    return sequence;
  }

  private static Block linear(int units, int fanIn) {
    Block l = Linear.builder().setUnits(units).build();
    PyTorchInit.linear(l, fanIn);
    return l;
  }

  /** ESAN's ego_nets_plus columns (is-root, is-not-root) before BREC's constant 1, then any encodings. */
  private int inputWidth() {
    return EgoNetsPlus.width(spec);
  }

  private int finalWidth() {
    return variant == Variant.DS ? DEEPSETS_WIDTH : spec.hidden();
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    long rows = (long) g.n() * g.n(); // every subgraph holds every vertex
    long perGin = NodeTables.activationBytes(rows, g.maxDegree(), spec.hidden(), spec.layers());
    return variant == Variant.DSS ? 2 * perGin : perGin;
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    return EgoNetsPlus.encode(manager, batch, peSigns, spec, variant == Variant.DSS);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    NDArray neighbours = inputs.get(1);
    for (int l = 0; l < subgraphGins.size(); l++) {
      NDArray local = subgraphGins.get(l)
          .forward(ps, new NDList(h.add(Gather.sumRows(h, neighbours))), training).singletonOrThrow();
      if (variant == Variant.DSS) {
        // each vertex's mean over its copies (every subgraph holds every vertex: n copies)
        NDArray perVertex = Gather.sumRows(h, inputs.get(7)).mul(inputs.get(3));
        NDArray global = graphGins.get(l).forward(ps,
            new NDList(perVertex.add(Gather.sumRows(perVertex, inputs.get(8)))), training).singletonOrThrow();
        h = Activation.relu(local.add(Gather.sumRows(global, inputs.get(9))));
      } else {
        h = local;
      }
    }
    NDArray subgraphs = Gather.sumRows(h, inputs.get(2));
    if (variant == Variant.DSS) {
      subgraphs = subgraphs.mul(inputs.get(3)); // DSS pools a subgraph by its mean, DS by its sum
    } else {
      for (int l = 0; l < deepSetsSelf.size(); l++) {
        NDArray mean = Gather.sumRows(subgraphs, inputs.get(4)).mul(inputs.get(5));
        NDArray self = deepSetsSelf.get(l).forward(ps, new NDList(subgraphs), training).singletonOrThrow();
        NDArray shared = deepSetsMean.get(l).forward(ps, new NDList(mean), training).singletonOrThrow();
        subgraphs = elu(self.add(Gather.sumRows(shared, inputs.get(6))));
      }
    }
    NDArray graph = Gather.sumRows(subgraphs, inputs.get(4)).mul(inputs.get(5));
    return fin.forward(ps, new NDList(graph), training);
  }

  private static NDArray elu(NDArray x) {
    // elu(x) = x for x > 0, exp(x) − 1 otherwise
    return Scalars.maximum(x, 0f).add(Scalars.minimum(x, 0f).exp().sub(1f));
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    for (int l = 0; l < subgraphGins.size(); l++) {
      int in = l == 0 ? inputWidth() : spec.hidden();
      subgraphGins.get(l).initialize(manager, dataType, new Shape(1, in));
      if (variant == Variant.DSS) {
        graphGins.get(l).initialize(manager, dataType, new Shape(1, in));
      }
    }
    for (int l = 0; l < deepSetsSelf.size(); l++) {
      int in = l == 0 ? spec.hidden() : DEEPSETS_WIDTH;
      deepSetsSelf.get(l).initialize(manager, dataType, new Shape(1, in));
      deepSetsMean.get(l).initialize(manager, dataType, new Shape(1, in));
    }
    fin.initialize(manager, dataType, new Shape(1, finalWidth()));
  }
}
