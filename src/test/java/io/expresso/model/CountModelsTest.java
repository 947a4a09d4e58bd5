package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;
import ai.djl.util.Pair;
import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Campi et al.'s count models ({@link I2Gnn}, {@link PpgnCounter}) against their code's sizes and small cases by hand. */
class CountModelsTest {

  private static long parameters(GraphRegressor net) {
    try (NDManager m = NDManager.newBaseManager()) {
      Block b = net.block();
      b.initialize(m, DataType.FLOAT32, net.inputShapes(m));
      long total = 0;
      for (Pair<String, Parameter> p : b.getParameters()) {
        total += p.getValue().getArray().size();
      }
      return total;
    }
  }

  @Test
  void i2gnnHasTheAuthorsParameterCountLessTheUnusedTransform() {
    // Their I2GNN(num_layers=5) (tests/model.pth sums to the same): 237,825 trainable parameters, of
    // which transform_before_conv[0] (Linear(128, 64): 8,256) is registered but never called.
    assertThat(parameters(RegressorSpec.parse("i2gnn:hidden=64,layers=5,hops=1").create())).isEqualTo(237_825 - 8_256);
    assertThat(parameters(RegressorSpec.parse("i2gnn:hidden=64,layers=5,hops=2").create())).isEqualTo(229_569);
  }

  @Test
  void ppgnHasTheAuthorsParameterCounts() {
    // PPGN(in_channels, hidden_channels, out_channels, num_layers, depth_of_mlp) of src/ppgn/ppgn.py, counted with torch
    assertThat(parameters(RegressorSpec.parse("ppgn").create())).isEqualTo(343_105); // 1, 128, 64, 4, 2
    assertThat(parameters(RegressorSpec.parse("ppgn:in=1,hidden=32,d=32,layers=3").create())).isEqualTo(22_241);
    assertThat(parameters(RegressorSpec.parse("ppgn:in=32,hidden=64,d=32,layers=3").create())).isEqualTo(63_521);
    assertThat(parameters(RegressorSpec.parse("ppgn:in=64,hidden=128,d=64,layers=5").create())).isEqualTo(482_625);
    assertThat(parameters(RegressorSpec.parse("ppgn:in=1,hidden=8,d=4,layers=2").create())).isEqualTo(549);
  }

  @Test
  void i2gnnSubgraphsFollowTheAuthorsConstruction() {
    // Path 0-1-2 plus an isolated vertex 3, radius 1: pairs (0,1), (1,0), (1,2), (2,1), and vertex 3
    // alone (their create_subgraphs2 gives a root without neighbours one subgraph of itself).
    Graph g = Graph.fromEdges(4, 0, 1, 1, 2);
    // Packed rows, no padding: pair (0,1) rows 0-1 (vertices 0, 1), (1,0) rows 2-4 and (1,2) rows 5-7
    // (vertices 0, 1, 2), (2,1) rows 8-9 (vertices 1, 2), vertex 3 alone row 10.
    try (NDManager m = NDManager.newBaseManager()) {
      NDList in = I2GnnNetwork.inputs(m, List.of(g), 1, I2GnnNetwork.Labels.HOP);
      assertThat(in.get(0).getShape().getShape()).containsExactly(11, 11); // adjacency over the 11 rows
      assertThat(in.get(1).getShape().getShape()).containsExactly(11, 3); // labels 0 (other), 1 (root), 2 (neighbour)
      // pair (1, 0): vertex 0 is the marked neighbour (2), 1 the root (1), 2 other (0)
      assertThat(Arrays.copyOfRange(in.get(1).toFloatArray(), 6, 15)).containsExactly(0, 0, 1, 0, 1, 0, 1, 0, 0);
      float[] adjacency = in.get(0).toDense().toFloatArray();
      assertThat(Arrays.copyOfRange(adjacency, 2 * 11 + 2, 2 * 11 + 5)).containsExactly(0, 1, 0); // row 2 (vertex 0)
      assertThat(Arrays.copyOfRange(adjacency, 3 * 11 + 2, 3 * 11 + 5)).containsExactly(1, 0, 1); // row 3 (vertex 1)
      assertThat(Arrays.copyOfRange(adjacency, 10 * 11, 11 * 11)).containsOnly(0f); // vertex 3 alone: no edges
      assertThat(Arrays.copyOfRange(in.get(1).toFloatArray(), 30, 33)).containsExactly(0, 1, 0); // ... labelled root
      assertThat(in.get(2).toDense().toFloatArray()).containsExactly( // node-to-subgraph (5 subgraphs × 11 rows)
          1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
          0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0,
          0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0,
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
      assertThat(in.get(3).toDense().toFloatArray()).containsExactly( // subgraph-to-root (4 roots × 5 subgraphs)
          1, 0, 0, 0, 0,
          0, 1, 1, 0, 0,
          0, 0, 0, 1, 0,
          0, 0, 0, 0, 1);
      assertThat(in.get(4).toDense().toFloatArray()).containsExactly(1, 1, 1, 1); // root-to-graph
    }
  }

  @Test
  void countModelsGiveOneNumberPerGraphIndependentOfLabelsBatchAndPadding() {
    Graph c5 = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0);
    Graph k4 = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
    Graph relabelled = c5.relabel(new int[] {2, 4, 1, 0, 3});
    for (String spec : List.of("i2gnn:hidden=8,layers=2,hops=2", "i2gnn:hidden=8,layers=2,hops=1,conv=gin",
        "ppgn:hidden=8,d=4,layers=3")) {
      Engine.getInstance().setRandomSeed(3);
      GraphRegressor net = RegressorSpec.parse(spec).create();
      try (NDManager m = NDManager.newBaseManager()) {
        net.block().initialize(m, DataType.FLOAT32, net.inputShapes(m));
        float[] y = forward(net, m, List.of(c5, k4, relabelled));
        assertThat(y).as(spec).hasSize(3);
        assertThat(y[2]).as(spec).isCloseTo(y[0], Offset.offset(1e-4f));
        assertThat(Math.abs(y[0] - y[1])).as(spec).isGreaterThan(1e-5f);
        assertThat(forward(net, m, List.of(k4))[0]).as(spec).isCloseTo(y[1], Offset.offset(1e-4f));
      }
    }
  }

  @Test
  void ppgnInputsHoldTheDiagonalChannelsThenTheAdjacency() {
    GraphRegressor net = RegressorSpec.parse("ppgn:in=2,hidden=4,d=2,layers=2").create();
    try (NDManager m = NDManager.newBaseManager()) {
      NDList in = net.inputs(m, List.of(Graph.fromEdges(2, 0, 1)));
      assertThat(in.size()).isEqualTo(1); // one size, no padding mask
      assertThat(in.get(0).toFloatArray()).containsExactly(1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0);
    }
  }

  @Test
  void badSpecsAreRefusedNamingTheKey() {
    assertThatThrownBy(() -> RegressorSpec.parse("ppgn:layers=1")).hasMessageContaining("layers must be >= 2");
    assertThatThrownBy(() -> RegressorSpec.parse("ppgn:width=3")).hasMessageContaining("got 'width=3'");
    assertThatThrownBy(() -> RegressorSpec.parse("i2gnn:conv=gcn")).hasMessageContaining("conv must be one of gated, gin");
    assertThat(RegressorSpec.parse("ppgn:hidden=16,layers=3").toString())
        .isEqualTo("ppgn:in=1,hidden=16,d=64,layers=3,depth=2");
    assertThat(RegressorSpec.parse("ppgn").withSizes(16, 2).toString()).isEqualTo("ppgn:in=1,hidden=16,d=16,layers=2,depth=2");
  }

  private static float[] forward(GraphRegressor net, NDManager m, List<Graph> graphs) {
    NDList in = net.inputs(m, graphs);
    return net.block().forward(new ParameterStore(m, false), in, false).head().toFloatArray();
  }

  @SuppressWarnings("unused")
  private static String show(float[] a) {
    return Arrays.toString(a);
  }
}
