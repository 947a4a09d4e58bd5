package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.train.TrainingSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GNN-AK+ as BREC's GNNAsKernel/test_BREC.py builds it (GnnAkBlock). */
class GnnAkTest {

  private static double maxDiff(float[] a, float[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d = Math.max(d, Math.abs(a[k] - b[k]));
    }
    return d;
  }

  private static float[][] embed(ModelSpec spec, Graph... graphs) {
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 3)) {
      return m.embed(List.of(graphs));
    }
  }

  @Test
  void defaultsAreThoseOfBrecsGnnAsKernelScriptAndConfig() {
    // train/configs/BREC.yaml: num_layers 4, mini_layers 2, hidden_size 32, hops 6, embs (0, 1, 2)
    // concat, pool add; core/config.py: gnn_type GINEConv, hops_dim 16, residual, dropout 0;
    // test_BREC.py (its search script passes only --SEED): OUTPUT_DIM 16, NUM_RELABEL 32, BATCH_SIZE 32,
    // EPOCH 10, LEARNING_RATE 1e-4, WEIGHT_DECAY 1e-5, LOSS_THRESHOLD 0.1; BatchNorm1d momentum 0.1 (DJL's 0.9)
    ModelSpec s = ModelSpec.defaults(Architecture.GNN_AK);
    assertThat(s.layers()).as("model.num_layers").isEqualTo(4);
    assertThat(GnnAkBlock.MINI_LAYERS).as("model.mini_layers").isEqualTo(2);
    assertThat(s.hidden()).as("model.hidden_size").isEqualTo(32);
    assertThat(s.radius()).as("subgraph.hops").isEqualTo(6);
    assertThat(GnnAkBlock.HOP_DIM).as("model.hops_dim").isEqualTo(16);
    assertThat(s.embedding()).as("OUTPUT_DIM").isEqualTo(16);
    assertThat(s.bnMomentum()).isEqualTo(0.9f);
    TrainingSettings t = TrainingSettings.defaults(Architecture.GNN_AK);
    assertThat(t.batchSize()).as("BATCH_SIZE").isEqualTo(32);
    assertThat(t.epochs()).as("EPOCH").isEqualTo(10);
    assertThat(t.learningRate()).as("LEARNING_RATE").isEqualTo(1e-4f);
    assertThat(t.weightDecay()).as("WEIGHT_DECAY").isEqualTo(1e-5f);
    assertThat(t.lossThreshold()).as("LOSS_THRESHOLD").isEqualTo(0.1);
    assertThat(t.q()).as("NUM_RELABEL").isEqualTo(32);
  }

  @Test
  void eachRootsItsBallOnlyAndEveryGraphGetsOneEmbeddingOfWidthD() {
    // the path 0-1-2-3-4 at radius 1: balls of 2, 3, 3, 3, 2 vertices (k_hop_subgraph keeps no vertex outside)
    Graph path = Graph.fromEdges(5, 0, 1, 1, 2, 2, 3, 3, 4);
    ModelSpec s = ModelSpec.parse("gnn-ak:layers=2,hidden=8,d=4,radius=1");
    GnnAkBlock block = new GnnAkBlock(s);
    try (NDManager m = NDManager.newBaseManager(Device.cpu())) {
      NDList in = block.encode(m, List.of(path));
      assertThat(in.get(0).getShape().get(0)).as("subgraph rows").isEqualTo(13);
      assertThat(in.get(1).getShape().get(1)).as("hop columns, distances 0 and 1").isEqualTo(2);
      assertThat(in.get(1).sum().getFloat()).as("one hop per row").isEqualTo(13f);
    }
    Graph twoTriangles = Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3);
    float[][] e = embed(s, Constructions.prism(), twoTriangles, Constructions.cycle(9), path);
    assertThat(e).hasNumberOfRows(4);
    for (float[] row : e) {
      assertThat(row).hasSize(4).doesNotContain(Float.NaN);
    }
  }

  @Test
  void egoNetsSeparateTwoTrianglesFromTheHexagonButNotTwoStronglyRegularGraphs3WlCannot() {
    // two triangles and C6: 1-WL equivalent; a vertex's 1-hop ego-net holds an edge in one, none in
    // the other (decalin/bicyclopentyl: GraphModelTest). The 4×4 rook graph and the Shrikhande graph:
    // SRG(16, 6, 2, 2), 3-WL equivalent; node-rooted subgraph GNNs are bounded by 3-WL, so no weights separate them
    ModelSpec s = ModelSpec.parse("gnn-ak:layers=2,hidden=16");
    Graph twoTriangles = Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3);
    Graph hexagon = Constructions.cycle(6);
    float[][] small = embed(s, twoTriangles, hexagon, twoTriangles.relabel(new int[] {4, 0, 5, 2, 1, 3}));
    double smallNoise = Math.max(1e-6, maxDiff(small[0], small[2]));
    assertThat(maxDiff(small[0], small[1])).isGreaterThan(100 * smallNoise);

    Graph rook = Constructions.rook(4);
    int[] perm = new int[16];
    for (int i = 0; i < 16; i++) {
      perm[i] = (i * 5 + 3) % 16;
    }
    float[][] e = embed(s, rook, Constructions.shrikhande(), rook.relabel(perm));
    double noise = Math.max(1e-5, maxDiff(e[0], e[2]));
    assertThat(maxDiff(e[0], e[1])).isLessThan(10 * noise);
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertThatThrownBy(() -> ModelSpec.parse("gnn-ak:mini-layers=3")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown key 'mini-layers'").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("gnn-ak:radius=19")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("radius must lie in [1, 18]").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("gnn-ak:pe=4")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pe is not a gnn-ak option").hasMessageNotContaining("\n");
    assertThat(ModelSpec.keys(Architecture.GNN_AK)).doesNotContain("pe");
  }
}
