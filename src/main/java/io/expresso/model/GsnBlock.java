package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.count.EdgeOrbitCounts;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GSN-e (Bouritsas et al. 2022), BREC's best GSN, as BREC's script builds it ({@code GSN_sparse},
 * {@code msg_kind general}, {@code id_scope local}, {@code inject_ids false}): messages see, per
 * edge, the exact induced counts of every connected 3- and 4-vertex graph by edge orbit
 * ({@link EdgeOrbitCounts}, 12 columns), one-hot encoded over the values of BREC's dataset
 * ({@link GsnCountEncoding}), in layer 0 only. Per layer l:
 * {@code m_vu = MLP_msg(h_v, h_u[, onehot(c_vu) if l = 0])} (Linear, BatchNorm, ReLU, Linear),
 * {@code h_v ← ReLU(BN(MLP_up(h_v, Σ_u m_vu)))} (MLP_up as MLP_msg); the graph embedding sums a
 * linear map of the sum-pooled node states of the input and of every layer (BREC's
 * {@code final_projection}: layers + 1 maps).
 *
 * <p>Inputs: node features N×1 (constant: BREC graphs are unlabelled), one-hot edge counts
 * E×{@link GsnCountEncoding#width()}, the receiving and sending node of every directed edge (E×1
 * each), each node's incoming edges N×maxDeg (padding E), pooling B×nMax (padding N).
 */
final class GsnBlock extends GraphBlock {

  /**
   * Counts of recently encoded graphs: training encodes the same 2q relabelings every epoch.
   * Synchronized: an eval's embedding passes encode from several threads (one intra-op thread each
   * where the engine runs one).
   */
  private static final int COUNT_CACHE = 512;

  private final ModelSpec spec;
  private final List<Block> messages = new ArrayList<>();
  private final List<Block> updates = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();
  private final Map<Graph, long[][]> counts = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Graph, long[][]> eldest) {
      return size() > COUNT_CACHE;
    }
  });

  GsnBlock(ModelSpec spec) {
    this.spec = spec;
    int in = 1 + spec.pe();
    readouts.add(addChildBlock("readout0", linear(spec.embedding(), in)));
    for (int l = 0; l < spec.layers(); l++) {
      int msgIn = l == 0 ? 2 * in + GsnCountEncoding.width() : 2 * in;
      SequentialBlock msg = Mlp.linearNormLinear(spec.hidden(), spec.bnMomentum());
      PyTorchInit.linears(msg, msgIn, spec.hidden());
      messages.add(addChildBlock("msg" + l, msg));
      SequentialBlock update = Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum());
      PyTorchInit.linears(update, in + spec.hidden(), spec.hidden());
      updates.add(addChildBlock("update" + l, update));
      readouts.add(addChildBlock("readout" + (l + 1), linear(spec.embedding(), spec.hidden())));
      in = spec.hidden();
    }
  }

  private static Block linear(int units, int fanIn) {
    Block l = Linear.builder().setUnits(units).build();
    PyTorchInit.linear(l, fanIn);
    return l;
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // GIN's node term plus, per layer, the message MLP's 16 hidden-wide rows per directed edge, and
    // the one-hot counts with their gradient
    long edges = 2L * g.m();
    return NodeTables.activationBytes(g.n(), g.maxDegree(), spec.hidden(), spec.layers())
        + 4L * edges * spec.hidden() * spec.layers() * 16L + 8L * edges * GsnCountEncoding.width();
  }

  @Override
  public NDList encode(NDManager manager, GraphBatch batch, float[] peSigns) {
    List<Graph> graphs = batch.graphs();
    int nodes = 0;
    int edges = 0;
    for (Graph g : graphs) {
      nodes += g.n();
      edges += g.csrTargets().length;
    }
    int columns = EdgeOrbitCounts.columns().size();
    int width = GsnCountEncoding.width();
    float[] c = new float[edges * width];
    long[] receiver = new long[edges];
    long[] sender = new long[edges];
    int[][] incoming = new int[nodes][];
    int[][] pool = new int[graphs.size()][];
    int node = 0;
    int edge = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      long[][] gc = countsOf(g);
      int[] offsets = g.csrOffsets();
      int[] targets = g.csrTargets();
      pool[b] = new int[g.n()];
      for (int v = 0; v < g.n(); v++) {
        pool[b][v] = node + v;
        incoming[node + v] = new int[offsets[v + 1] - offsets[v]];
        for (int p = offsets[v]; p < offsets[v + 1]; p++) {
          int e = edge + p;
          incoming[node + v][p - offsets[v]] = e;
          receiver[e] = node + v;
          sender[e] = node + targets[p];
          for (int k = 0; k < columns; k++) {
            c[e * width + GsnCountEncoding.slot(k, gc[p][k])] = 1f;
          }
        }
      }
      node += g.n();
      edge += targets.length;
    }
    return new NDList(
        manager.create(NodeFeature.table(batch, 0, spec.pe(), peSigns), new Shape(nodes, 1 + spec.pe())),
        manager.create(c, new Shape(edges, width)),
        manager.create(receiver, new Shape(edges, 1)),
        manager.create(sender, new Shape(edges, 1)),
        NodeTables.padded(manager, incoming, edges),
        NodeTables.padded(manager, pool, nodes));
  }

  private long[][] countsOf(Graph g) {
    return counts.computeIfAbsent(g, EdgeOrbitCounts::perDirectedEdge);
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray h = inputs.get(0);
    NDArray c = inputs.get(1);
    NDArray receiver = inputs.get(2);
    NDArray sender = inputs.get(3);
    NDArray incoming = inputs.get(4);
    NDArray pooling = inputs.get(5);
    NDArray out = readouts.get(0).forward(ps, new NDList(Gather.sumRows(h, pooling)), training).singletonOrThrow();
    for (int l = 0; l < messages.size(); l++) {
      NDArray msgIn = Gather.sumRows(h, receiver).concat(Gather.sumRows(h, sender), 1);
      if (l == 0) {
        msgIn = msgIn.concat(c, 1); // inject_ids false: the counts enter layer 0 only
      }
      NDArray m = messages.get(l).forward(ps, new NDList(msgIn), training).singletonOrThrow();
      NDArray agg = Gather.sumRows(m, incoming);
      h = updates.get(l).forward(ps, new NDList(h.concat(agg, 1)), training).singletonOrThrow();
      NDArray pooled = Gather.sumRows(h, pooling);
      NDArray r = readouts.get(l + 1).forward(ps, new NDList(pooled), training).singletonOrThrow();
      out = out.add(r);
    }
    return new NDList(out);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int in = 1 + spec.pe();
    readouts.get(0).initialize(manager, dataType, new Shape(1, in));
    for (int l = 0; l < messages.size(); l++) {
      messages.get(l).initialize(manager, dataType, new Shape(1, 2 * in + (l == 0 ? GsnCountEncoding.width() : 0)));
      updates.get(l).initialize(manager, dataType, new Shape(1, in + spec.hidden()));
      readouts.get(l + 1).initialize(manager, dataType, new Shape(1, spec.hidden()));
      in = spec.hidden();
    }
  }
}
