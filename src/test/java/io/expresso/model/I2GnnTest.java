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
  void theLabelReinjectionIsTheLinearOnTheConcatenation() {
    // reinject computes Linear(2d -> d)([h, labels . table]) with the label half of the weight applied to the
    // table's K rows: it must be the same sum, for one-hot (hop) and multi-hot (spd) labels alike
    Engine.getInstance().setRandomSeed(11);
    try (NDManager m = NDManager.newBaseManager()) {
      int d = 6;
      ai.djl.nn.Block linear = I2GnnNetwork.torchLinear(d, 2 * d, true);
      linear.initialize(m, DataType.FLOAT32, new ai.djl.ndarray.types.Shape(1, 2L * d));
      ai.djl.ndarray.NDArray h = m.randomNormal(new ai.djl.ndarray.types.Shape(9, d));
      ai.djl.ndarray.NDArray table = m.randomNormal(new ai.djl.ndarray.types.Shape(4, d));
      ai.djl.ndarray.NDArray labels = m.create(new float[] {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 2, 0, 1, 0,
          0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 3, 0}, new ai.djl.ndarray.types.Shape(9, 4));
      ParameterStore ps = new ParameterStore(m, false);
      float[] direct = linear.forward(ps, new NDList(h.concat(labels.matMul(table), -1)), false).head().toFloatArray();
      float[] folded = I2GnnNetwork.reinject(ps, linear, h, labels, table, false).toFloatArray();
      assertThat(folded).hasSameSizeAs(direct);
      for (int i = 0; i < direct.length; i++) {
        assertThat(folded[i]).as("entry %d", i).isCloseTo(direct[i], org.assertj.core.data.Offset.offset(1e-4f));
      }
    }
  }

  @Test
  void brecsI2gnnTrainsOnAPairWithItsMaskedNormsAndTellsC8FromTwoC4s() {
    ModelSpec spec = ModelSpec.parse("i2gnn:layers=2,hidden=8,radius=2");
    io.expresso.train.EvaluationSettings s = io.expresso.train.EvaluationSettings.defaults(spec);
    s = s.withTraining(s.training().withEpochs(3).withLossThreshold(0));
    io.expresso.train.PairEvaluation e = io.expresso.train.PairEvaluator.evaluate(
        new io.expresso.suite.GraphPair(0, "Basic", C8, TWO_C4, null), spec, s, 1L, ai.djl.Device.cpu());
    assertThat(e.training().epochs()).isEqualTo(3);
    assertThat(e.training().finalLoss()).isBetween(0.0, 2.0);
    assertThat(e.distinguished()).as("T²=%s", e.judgement().t2Test()).isTrue();
    assertThat(e.reliable()).as("reliability T²=%s", e.judgement().t2Reliability()).isTrue();
    BrecModelChecks.assertRefusedInOneLine("i2gnn:pe=4", "pe is not an i2gnn option");
  }

  @Test
  void brecsSpdLabelsSumTheDistancesToTheRootAndToTheMarkedNeighbour() {
    // Path 0-1-2-3, h = 1: the pair (root 1, neighbour 2) sees {0, 1, 2}. BREC's labels per node:
    // d_i + 1, 0, d_j + 1 + h + 3 (d_j inside the ball), h + 3, as multi-hot counts over 2h + 6 rows.
    Graph path = Graph.fromEdges(4, 0, 1, 1, 2, 2, 3);
    try (NDManager m = NDManager.newBaseManager()) {
      NDList in = I2GnnNetwork.inputs(m, List.of(path), 1, I2GnnNetwork.Labels.SPD);
      // packed rows: pairs (0,1) 2 rows, (1,0) 3 rows, (1,2) rows 5-7 (vertices 0, 1, 2), (2,1), (2,3) 3, (3,2) 2
      assertThat(in.get(1).getShape().getShape()).containsExactly(16, 8);
      float[] x = java.util.Arrays.copyOfRange(in.get(1).toFloatArray(), 5 * 8, 8 * 8);
      assertThat(java.util.Arrays.copyOfRange(x, 0, 8)).containsExactly(1, 0, 1, 0, 1, 0, 0, 1); // 0: d_i 1, d_j 2
      assertThat(java.util.Arrays.copyOfRange(x, 8, 16)).containsExactly(1, 1, 0, 0, 1, 0, 1, 0); // 1: d_i 0, d_j 1
      assertThat(java.util.Arrays.copyOfRange(x, 16, 24)).containsExactly(1, 0, 1, 0, 1, 1, 0, 0); // 2: d_i 1, d_j 0
      NDList lone = I2GnnNetwork.inputs(m, List.of(Graph.fromEdges(1)), 1, I2GnnNetwork.Labels.SPD);
      assertThat(lone.get(1).toFloatArray()).containsExactly(2, 2, 0, 0, 0, 0, 0, 0); // 1, 0, 1, 0
    }
  }

  @Test
  void aGraphsCountDoesNotDependOnTheOtherGraphsOfItsBatch() {
    // A star's 1-hop ball around its centre has 13 vertices; a path's balls have at most 3. Rows are
    // packed, one per subgraph node (the path: 2 + 6 + 6 + 6 + 2; the star: 12 × 13 + 12 × 2), and the
    // path gets the same output alone as beside the star.
    Engine.getInstance().setRandomSeed(11);
    Graph star = Graph.fromEdges(13, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12);
    Graph path = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4);
    try (NDManager m = NDManager.newBaseManager()) {
      I2Gnn net = new I2Gnn(8, 2, 1);
      net.initialize(m, DataType.FLOAT32, net.inputShapes(m));
      assertThat(net.inputs(m, List.of(path)).get(1).getShape().get(0)).isEqualTo(22);
      assertThat(net.inputs(m, List.of(star, path)).get(1).getShape().get(0)).isEqualTo(180 + 22);
      float[] both = forward(net, m, List.of(star, path));
      float[] alone = forward(net, m, List.of(path));
      assertThat(alone[0]).isCloseTo(both[1], org.assertj.core.data.Offset.offset(1e-5f));
    }
  }

  @Test
  void theMemoryEstimatePadsToTheLargestBallAboveThePackedTensors() {
    // A 60-cycle's 2-hop balls have 5 vertices; a 13-vertex star's centre reaches every vertex.
    int[] edges = new int[120];
    for (int v = 0; v < 60; v++) {
      edges[2 * v] = v;
      edges[2 * v + 1] = (v + 1) % 60;
    }
    Graph cycle = Graph.fromEdges(60, edges);
    Graph star = Graph.fromEdges(13, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12);
    I2GnnBlock block = new I2GnnBlock(ModelSpec.parse("i2gnn:layers=2,hidden=8,radius=2"));
    assertThat(block.paddedSize(cycle)).isEqualTo(5);
    assertThat(block.paddedSize(star)).isEqualTo(13);
    assertThat(block.paddedSize(Graph.fromEdges(4))).isEqualTo(1); // no edges, no subgraphs
    try (NDManager m = NDManager.newBaseManager()) {
      for (List<Graph> batch : List.of(List.of(cycle), List.of(star), List.of(cycle, star))) {
        // the tensors hold one row per subgraph node, at most one padded subgraph's worth per (root, neighbour)
        long rows = I2GnnNetwork.inputs(m, batch, 2, I2GnnNetwork.Labels.SPD).get(1).getShape().get(0);
        long subgraphs = batch.stream().mapToLong(g -> 2L * g.m()).sum();
        assertThat(rows).isLessThanOrEqualTo(subgraphs * batch.stream().mapToInt(block::paddedSize).max().orElseThrow());
      }
    }
    // sized by the ball, the cycle's estimate is far below one padded to its 60 vertices
    assertThat(block.bytesPerGraph(cycle, block.paddedSize(cycle)) * 5).isLessThan(block.bytesPerGraph(cycle, 60));
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
    RegressorSpec plain = RegressorSpec.parse("ngnn-de:layers=2,hidden=8");
    RegressorSpec normed = RegressorSpec.parse("ngnn-de:readout-norm=batch,layers=2,hidden=8");
    assertThat(normed.toString()).isEqualTo(plain + ",readout-norm=batch");
    assertThat(RegressorSpec.parse(normed.toString())).isEqualTo(normed);
    assertThat(RegressorSpec.parse("ngnn-de:layers=2,hidden=8,readout-norm=none")).isEqualTo(plain);
    assertThatThrownBy(() -> RegressorSpec.parse("ngnn-de:readout-norm=layer")).hasMessageContaining("none or batch");
    assertThat(normed.create().block().getChildren().keys()).anyMatch(k -> k.contains("readoutNorm"));
    assertThat(plain.create().block().getChildren().keys()).noneMatch(k -> k.contains("readoutNorm"));
  }
}
