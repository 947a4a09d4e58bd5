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
import io.expresso.count.EdgeOrbitCounts;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GSN-e (Bouritsas et al. 2022), BREC's best GSN: message passing whose messages see, per edge,
 * the exact induced counts of every connected 3- and 4-vertex graph by edge orbit
 * ({@link EdgeOrbitCounts}, 12 columns). Per layer, with the "general" message kind:
 * {@code m_vu = MLP_msg(h_v, h_u, c_vu)}, {@code h_v ← MLP_up(h_v, Σ_u m_vu)}; the graph embedding
 * is, as in {@link GinBlock}, the sum over layers of a linear map of the sum-pooled node states.
 *
 * <p>Inputs: node features N×1 (constant: BREC graphs are unlabelled), edge counts E×12, the
 * receiving and sending node of every directed edge (E×1 each), each node's incoming edges
 * N×maxDeg (padding E), pooling B×nMax (padding N).
 */
final class GsnBlock extends GraphBlock {

  /** Counts of recently encoded graphs: training encodes the same 2q relabelings every epoch. */
  private static final int COUNT_CACHE = 512;

  private final ModelSpec spec;
  private final List<Block> messages = new ArrayList<>();
  private final List<Block> updates = new ArrayList<>();
  private final List<Block> readouts = new ArrayList<>();
  private final Map<Graph, long[][]> counts = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Graph, long[][]> eldest) {
      return size() > COUNT_CACHE;
    }
  };

  GsnBlock(ModelSpec spec) {
    this.spec = spec;
    for (int l = 0; l < spec.layers(); l++) {
      messages.add(addChildBlock("msg" + l, Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum())));
      updates.add(addChildBlock("update" + l, Mlp.withBatchNorm(spec.hidden(), spec.bnMomentum())));
      readouts.add(addChildBlock("readout" + l, Linear.builder().setUnits(spec.embedding()).build()));
    }
  }

  @Override
  public int outputSize() {
    return spec.embedding();
  }

  @Override
  public long bytesPerGraph(Graph g, int maxVertices) {
    // GIN's node term plus, per layer, the message MLP's 16 hidden-wide rows per directed edge
    long edges = 2L * g.m();
    return NodeTables.activationBytes(g.n(), g.maxDegree(), spec.hidden(), spec.layers())
        + 4L * edges * spec.hidden() * spec.layers() * 16L;
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
    int width = EdgeOrbitCounts.columns().size();
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
          for (int k = 0; k < width; k++) {
            c[e * width + k] = gc[p][k];
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
    NDArray out = null;
    for (int l = 0; l < messages.size(); l++) {
      NDArray msgIn = Gather.sumRows(h, receiver).concat(Gather.sumRows(h, sender), 1).concat(c, 1);
      NDArray m = messages.get(l).forward(ps, new NDList(msgIn), training).singletonOrThrow();
      NDArray agg = Gather.sumRows(m, incoming);
      h = updates.get(l).forward(ps, new NDList(h.concat(agg, 1)), training).singletonOrThrow();
      NDArray pooled = Gather.sumRows(h, pooling);
      NDArray r = readouts.get(l).forward(ps, new NDList(pooled), training).singletonOrThrow();
      out = out == null ? r : out.add(r);
    }
    return new NDList(out);
  }

  @Override
  protected void initializeFromSpec(NDManager manager, DataType dataType) {
    int width = EdgeOrbitCounts.columns().size();
    for (int l = 0; l < messages.size(); l++) {
      int in = l == 0 ? 1 + spec.pe() : spec.hidden();
      messages.get(l).initialize(manager, dataType, new Shape(1, 2 * in + width));
      updates.get(l).initialize(manager, dataType, new Shape(1, in + spec.hidden()));
      readouts.get(l).initialize(manager, dataType, new Shape(1, spec.hidden()));
    }
  }
}
