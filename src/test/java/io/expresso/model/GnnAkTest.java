package io.expresso.model;

import static io.expresso.model.BrecModelChecks.assertOneEmbeddingPerGraph;
import static io.expresso.model.BrecModelChecks.assertRefusedInOneLine;
import static io.expresso.model.BrecModelChecks.assertRookAndShrikhandeAlike;
import static io.expresso.model.BrecModelChecks.defaultsOf;
import static io.expresso.model.BrecModelChecks.embed;
import static io.expresso.model.BrecModelChecks.maxDiff;
import static io.expresso.model.BrecModelChecks.twoTriangles;
import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GNN-AK+ as BREC's GNNAsKernel/test_BREC.py builds it (GnnAkBlock). */
class GnnAkTest {

  @Test
  void defaultsAreThoseOfBrecsGnnAsKernelScriptAndConfig() {
    // train/configs/BREC.yaml: num_layers 4, mini_layers 2, hidden_size 32, hops 6, embs (0, 1, 2)
    // concat, pool add; core/config.py: gnn_type GINEConv, hops_dim 16, residual, dropout 0;
    // test_BREC.py (its search script passes only --SEED): OUTPUT_DIM 16, NUM_RELABEL 32, BATCH_SIZE 32,
    // EPOCH 10, LEARNING_RATE 1e-4, WEIGHT_DECAY 1e-5, LOSS_THRESHOLD 0.1; BatchNorm1d momentum 0.1 (DJL's 0.9)
    defaultsOf(Architecture.GNN_AK).layers("model.num_layers", 4).hidden("model.hidden_size", 32)
        .radius("subgraph.hops", 6).embedding("OUTPUT_DIM", 16).bnMomentum("nn.BatchNorm1d momentum", 0.9f)
        .batchSize("BATCH_SIZE", 32).epochs("EPOCH", 10).learningRate("LEARNING_RATE", 1e-4f)
        .weightDecay("WEIGHT_DECAY", 1e-5f).lossThreshold("LOSS_THRESHOLD", 0.1).relabelings("NUM_RELABEL", 32);
    assertThat(GnnAkBlock.MINI_LAYERS).as("model.mini_layers").isEqualTo(2);
    assertThat(GnnAkBlock.HOP_DIM).as("model.hops_dim").isEqualTo(16);
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
    float[][] e = embed(s, Constructions.prism(), twoTriangles(), Constructions.cycle(9), path);
    assertOneEmbeddingPerGraph(e, 4, 4);
  }

  @Test
  void egoNetsSeparateTwoTrianglesFromTheHexagonButNotTwoStronglyRegularGraphs3WlCannot() {
    // two triangles and C6: 1-WL equivalent; a vertex's 1-hop ego-net holds an edge in one, none in
    // the other (decalin/bicyclopentyl: GraphModelTest). The 4×4 rook graph and the Shrikhande graph:
    // SRG(16, 6, 2, 2), 3-WL equivalent; node-rooted subgraph GNNs are bounded by 3-WL, so no weights separate them
    ModelSpec s = ModelSpec.parse("gnn-ak:layers=2,hidden=16");
    float[][] small = embed(s, twoTriangles(), Constructions.cycle(6), twoTriangles().relabel(new int[] {4, 0, 5, 2, 1, 3}));
    double smallNoise = Math.max(1e-6, maxDiff(small[0], small[2]));
    assertThat(maxDiff(small[0], small[1])).isGreaterThan(100 * smallNoise);

    assertRookAndShrikhandeAlike(s);
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertRefusedInOneLine("gnn-ak:mini-layers=3", "unknown key 'mini-layers'");
    assertRefusedInOneLine("gnn-ak:radius=19", "radius must lie in [1, 18]");
    assertRefusedInOneLine("gnn-ak:pe=4", "pe is not a gnn-ak option");
    assertThat(Architecture.GNN_AK.keys()).doesNotContain("pe");
  }
}
