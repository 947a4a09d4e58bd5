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
import ai.djl.nn.norm.BatchNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * SUN (Frasca et al. 2022, "Understanding and Extending Subgraph GNNs by Rethinking Their Symmetries")
 * as BREC's {@code SUN/test_BREC_sun.py} builds its {@code SUNnetwork} with
 * {@code test_BREC_search_sun.py}'s flags ({@code --policy=ego_nets_plus --gnn_type=originalgin
 * --num_hops=6 --num_layer=9 --emb_dim=32}, and the script's defaults: no transpose, no residual,
 * batch norms, subgraph readout by sum, MLP updates). On {@link EgoNetsPlus}'s subgraphs, per layer,
 * with x^k_v the state of vertex v in the subgraph rooted at k:
 *
 * <ul>
 *   <li>a non-root node: {@code u_vv(x^v_v) + u_kk(x^k_k) + u_kv(x^k_v) + BN(GIN(x on S_k))
 *       + BN(GIN_sum(mean_k x^k on G))[v] + u_readout(Σ_v x^k_v)};
 *   <li>a root: {@code u_vv_root(x^k_k) + BN(GIN_root(x on S_k))[k] + BN(GIN_root_sum(mean_k x^k on G))[k]
 *       + u_readout_root(Σ_v x^k_v)};
 * </ul>
 *
 * then ReLU. Each u is Linear, BatchNorm, ReLU, Linear; each GIN is ESAN's {@code OriginalGINConv}
 * (the same, on x plus its neighbours' sum); the non-root norm sees only non-root nodes, as BREC's
 * {@code h1[~is_root] = bn(h1[~is_root])}. Then each subgraph's mean, the mean over subgraphs and
 * Linear, ReLU, Linear to d. Linear layers start as PyTorch's.
 *
 * <p>Inputs: {@link EgoNetsPlus}'s with originals (0–9), then each subgraph's root row R×1, the
 * non-root rows (M−R)×1 with their vertex and their subgraph (M−R)×1 each, and each row's place in
 * [non-root updates; root updates] M×1.
 */
final class SunBlock extends GraphBlock {

  private final ModelSpec spec;
  private final List<Layer> layers = new ArrayList<>();
  private final Block fin;

  /** One SUN layer's blocks, named as SUNnetwork's lists. */
  private record Layer(Block gnn, Block gnnRoot, Block gnnSum, Block gnnRootSum, Block bn, Block bnRoot,
      Block bnSum, Block bnRootSum, Block uReadout, Block uReadoutRoot, Block uVv, Block uKk, Block uKv,
      Block uVvRoot) {

    List<Block> updates() {
      return List.of(gnn, gnnRoot, gnnSum, gnnRootSum, uReadout, uReadoutRoot, uVv, uKk, uKv, uVvRoot);
    }

    List<Block> norms() {
      return List.of(bn, bnRoot, bnSum, bnRootSum);
    }
  }

  SunBlock(ModelSpec spec) {
    this.spec = spec;
    for (int l = 0; l < spec.layers(); l++) {
      int in = l == 0 ? EgoNetsPlus.width(spec) : spec.hidden();
      String p = "layer" + l + ".";
      layers.add(new Layer(
          mlp(p + "gnn", in), mlp(p + "gnnRoot", in), mlp(p + "gnnSum", in), mlp(p + "gnnRootSum", in),
          norm(p + "bn"), norm(p + "bnRoot"), norm(p + "bnSum"), norm(p + "bnRootSum"),
          mlp(p + "uReadout", in), mlp(p + "uReadoutRoot", in), mlp(p + "uVv", in), mlp(p + "uKk", in),
          mlp(p + "uKv", in), mlp(p + "uVvRoot", in)));
    }
    SequentialBlock f = new SequentialBlock()
        .add(Linear.builder().setUnits(2L * spec.hidden()).build())
        .add(Activation.reluBlock())
        .add(Linear.builder().setUnits(spec.embedding()).build());
    PyTorchInit.linears(f, spec.hidden(), 2 * spec.hidden());
    fin = addChildBlock("final", f);
  }

  /** Linear, BatchNorm, ReLU, Linear: OriginalGINConv's MLP and SUN's u networks alike. */
  private Block mlp(String name, int in) {
    SequentialBlock b = Mlp.linearNormLinear(spec.hidden(), spec.bnMomentum());
    PyTorchInit.linears(b, in, spec.hidden());
    return addChildBlock(name, b);
  }

  private Block norm(String name) {
    return addChildBlock(name, BatchNorm.builder().optMomentum(spec.bnMomentum()).build());
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // four GINs and three u networks over every subgraph node per layer: as DSS's two GINs, twice more
    long rows = (long) g.n() * g.n();
    return 4 * NodeTables.activationBytes(rows, g.maxDegree(), spec.hidden(), spec.layers());
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    NDList in = EgoNetsPlus.encode(manager, batch, peSigns, spec, true);
    int total = 0;
    int subgraphs = 0;
    for (Graph g : batch.graphs()) {
      total += g.n() * g.n();
      subgraphs += g.n();
    }
    long[] rootRow = new long[subgraphs];
    long[] nonRoot = new long[total - subgraphs];
    long[] nonRootVertex = new long[total - subgraphs];
    long[] nonRootSub = new long[total - subgraphs];
    long[] place = new long[total];
    int row = 0;
    int sub = 0;
    int k = 0;
    for (Graph g : batch.graphs()) {
      int n = g.n();
      int vertexBase = sub;
      for (int r = 0; r < n; r++) {
        for (int v = 0; v < n; v++) {
          if (v == r) {
            rootRow[sub] = row;
            place[row] = (total - subgraphs) + sub;
          } else {
            nonRoot[k] = row;
            nonRootVertex[k] = vertexBase + v;
            nonRootSub[k] = sub;
            place[row] = k++;
          }
          row++;
        }
        sub++;
      }
    }
    in.add(manager.create(rootRow, new Shape(subgraphs, 1)));
    in.add(manager.create(nonRoot, new Shape(nonRoot.length, 1)));
    in.add(manager.create(nonRootVertex, new Shape(nonRoot.length, 1)));
    in.add(manager.create(nonRootSub, new Shape(nonRoot.length, 1)));
    in.add(manager.create(place, new Shape(total, 1)));
    return in;
  }

  private static NDArray run(Block b, ParameterStore ps, NDArray x, boolean training) {
    return b.forward(ps, new NDList(x), training).singletonOrThrow();
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray x = inputs.get(0);
    NDArray neighbours = inputs.get(1);
    NDArray subPool = inputs.get(2);
    NDArray perSubgraph = inputs.get(3); // 1/n
    NDArray copies = inputs.get(7);
    NDArray original = inputs.get(8);
    NDArray rootRow = inputs.get(10);
    NDArray nonRoot = inputs.get(11);
    NDArray nonRootVertex = inputs.get(12);
    NDArray nonRootSub = inputs.get(13);
    NDArray place = inputs.get(14);
    for (Layer l : layers) {
      NDArray hSubgraph = Gather.sumRows(x, subPool); // subgraph_readout sum
      NDArray xSum = Gather.sumRows(x, copies).mul(perSubgraph); // each vertex's mean over its copies
      NDArray rootRepr = Gather.sumRows(x, rootRow);
      NDArray onSubgraphs = x.add(Gather.sumRows(x, neighbours));
      NDArray onOriginal = xSum.add(Gather.sumRows(xSum, original));

      NDArray kv = run(l.uKv(), ps, x, training);
      NDArray h1 = run(l.gnn(), ps, onSubgraphs, training);
      NDArray h2 = run(l.bnSum(), ps, run(l.gnnSum(), ps, onOriginal, training), training);
      NDArray out = Gather.sumRows(run(l.uVv(), ps, rootRepr, training), nonRootVertex)
          .add(Gather.sumRows(run(l.uKk(), ps, rootRepr, training), nonRootSub))
          .add(Gather.sumRows(kv, nonRoot))
          .add(run(l.bn(), ps, Gather.sumRows(h1, nonRoot), training))
          .add(Gather.sumRows(h2, nonRootVertex))
          .add(Gather.sumRows(run(l.uReadout(), ps, hSubgraph, training), nonRootSub));

      NDArray h1Root = run(l.bnRoot(), ps, Gather.sumRows(run(l.gnnRoot(), ps, onSubgraphs, training), rootRow),
          training);
      NDArray h2Root = run(l.bnRootSum(), ps, run(l.gnnRootSum(), ps, onOriginal, training), training);
      NDArray root = run(l.uVvRoot(), ps, rootRepr, training).add(h1Root).add(h2Root)
          .add(run(l.uReadoutRoot(), ps, hSubgraph, training));

      x = Activation.relu(Gather.sumRows(out.concat(root, 0), place));
    }
    NDArray subgraphs = Gather.sumRows(x, subPool).mul(perSubgraph);
    NDArray graph = Gather.sumRows(subgraphs, inputs.get(4)).mul(inputs.get(5));
    return fin.forward(ps, new NDList(graph), training);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    for (int i = 0; i < layers.size(); i++) {
      int in = i == 0 ? EgoNetsPlus.width(spec) : spec.hidden();
      for (Block b : layers.get(i).updates()) {
        b.initialize(manager, dataType, new Shape(1, in));
      }
      for (Block b : layers.get(i).norms()) {
        b.initialize(manager, dataType, new Shape(1, spec.hidden()));
      }
    }
    fin.initialize(manager, dataType, new Shape(1, spec.hidden()));
  }
}
