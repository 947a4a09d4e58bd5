package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.training.ParameterStore;
import io.expresso.graph.Graph;
import java.util.List;
import org.junit.jupiter.api.Test;

class I2GnnTest {

  private static final Graph C8 = Graph.fromEdges(8, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 0);
  private static final Graph TWO_C4 = Graph.fromEdges(8, 0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4);

  private static float[] forward(I2Gnn net, NDManager m, List<Graph> graphs) {
    NDList in = net.inputs(m, graphs);
    return net.forward(new ParameterStore(m, false), in, false).head().toType(DataType.FLOAT32, false).toFloatArray();
  }

  @Test
  void randomWeightsSeparateTheOneWlEquivalentC8AndTwoC4sButNotRelabelings() {
    Engine.getInstance().setRandomSeed(5);
    try (NDManager m = NDManager.newBaseManager()) {
      I2Gnn net = new I2Gnn(16, 2, 2);
      net.initialize(m, DataType.FLOAT32, net.inputShapes(m));
      Graph relabelled = C8.relabel(new int[] {3, 7, 1, 0, 5, 2, 6, 4});
      float[] y = forward(net, m, List.of(C8, TWO_C4, relabelled));
      assertThat(Math.abs(y[0] - y[1])).isGreaterThan(1e-4f);
      assertThat(y[2]).isCloseTo(y[0], org.assertj.core.data.Offset.offset(1e-4f));
      // A batch gives each graph the same output as alone (no leakage across graphs in a batch).
      float[] alone = forward(net, m, List.of(TWO_C4));
      assertThat(alone[0]).isCloseTo(y[1], org.assertj.core.data.Offset.offset(1e-4f));
    }
  }

  @Test
  void subgraphTensorsFollowTheDefinition() {
    // Path 0-1-2-3 with k = 1: the pair (root 1, neighbour 2) sees {0, 1, 2} and edges 0-1, 1-2.
    Graph path = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3);
    I2Gnn net = new I2Gnn(4, 1, 1);
    try (NDManager m = NDManager.newBaseManager()) {
      NDList in = net.inputs(m, List.of(path));
      assertThat(in.get(0).getShape().get(0)).isEqualTo(6); // 2m pairs
      // Pairs in order: (0,1), (1,0), (1,2), (2,1), (2,3), (3,2).
      float[] mask = in.get(2).get(2).toFloatArray();
      assertThat(mask).containsExactly(1, 1, 1, 0);
      float[] adj = in.get(0).get(2).toFloatArray();
      assertThat(adj[0 * 4 + 1]).isEqualTo(1);
      assertThat(adj[1 * 4 + 2]).isEqualTo(1);
      assertThat(adj[2 * 4 + 3]).isEqualTo(0); // vertex 3 is outside the 1-hop subgraph of 1
      // features: root, neighbour, other | dist to root 0, 1 | dist to neighbour 0, 1, 2, farther
      float[] x = in.get(1).get(2).toFloatArray();
      assertThat(java.util.Arrays.copyOfRange(x, 9, 18)).containsExactly(1, 0, 0, 1, 0, 0, 1, 0, 0); // vertex 1
      assertThat(java.util.Arrays.copyOfRange(x, 18, 27)).containsExactly(0, 1, 0, 0, 1, 1, 0, 0, 0); // vertex 2
      assertThat(java.util.Arrays.copyOfRange(x, 0, 9)).containsExactly(0, 0, 1, 0, 1, 0, 0, 1, 0); // vertex 0
      float[] pairToRoot = in.get(3).toFloatArray(); // (4 roots, 6 pairs)
      assertThat(java.util.Arrays.copyOfRange(pairToRoot, 6, 12)).containsExactly(0, 1, 1, 0, 0, 0);
    }
  }

  @Test
  void specsParseAndRejectUnknownModelsClearly() {
    assertThat(RegressorSpec.parse("i2gnn").toString()).isEqualTo("i2gnn:hidden=32,layers=3,hops=2");
    assertThat(RegressorSpec.parse("I2GNN:hidden=8,hops=1").toString()).isEqualTo("i2gnn:hidden=8,layers=3,hops=1");
    RegressorSpec ppgn = RegressorSpec.parse("ppgn:layers=3");
    assertThat(ppgn.architecture()).isEqualTo("ppgn");
    assertThat(RegressorSpec.parse(ppgn.toString())).isEqualTo(ppgn);
    assertThatThrownBy(() -> RegressorSpec.parse("transformer")).hasMessageContaining("unknown count-regression model 'transformer'");
    assertThatThrownBy(() -> RegressorSpec.parse("i2gnn:width=3")).hasMessageContaining("key in");
    assertThatThrownBy(() -> RegressorSpec.parse("i2gnn:hidden=x")).hasMessageContaining("not an integer");
  }

  @Test
  void aReadoutBatchNormIsTheRegressorsKeyAndChangesTheNetwork() {
    RegressorSpec plain = RegressorSpec.parse("ppgn:layers=2,hidden=8");
    RegressorSpec normed = RegressorSpec.parse("ppgn:readout-norm=batch,layers=2,hidden=8");
    assertThat(normed.toString()).isEqualTo(plain + ",readout-norm=batch");
    assertThat(RegressorSpec.parse(normed.toString())).isEqualTo(normed);
    assertThat(RegressorSpec.parse("ppgn:layers=2,hidden=8,readout-norm=none")).isEqualTo(plain);
    assertThatThrownBy(() -> RegressorSpec.parse("ppgn:readout-norm=layer")).hasMessageContaining("none or batch");
    assertThat(normed.create().block().getChildren().keys()).anyMatch(k -> k.contains("readoutNorm"));
    assertThat(plain.create().block().getChildren().keys()).noneMatch(k -> k.contains("readoutNorm"));
  }
}
