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

/** SSWL_P as BREC's SWL/test_BREC.py builds it (SswlBlock). */
class SswlTest {

  @Test
  void defaultsAreThoseOfBrecsSwlSearchScript() {
    // SWL/test_BREC_search.py: --model=SSWL_P --max_dis=8 --num_layer=8 --dim_embed=64 --BATCH_SIZE=8
    // --LEARNING_RATE=1e-5 --WEIGHT_DECAY=1e-5; test_BREC.py: EPOCH 20, LOSS_THRESHOLD 0.1,
    // OUTPUT_DIM 16, NUM_RELABEL 32; nn.BatchNorm1d's momentum 0.1 (DJL's 0.9)
    defaultsOf(Architecture.SSWL_P).radius("--max_dis", 8).layers("--num_layer", 8).hidden("--dim_embed", 64)
        .embedding("OUTPUT_DIM", 16).bnMomentum("nn.BatchNorm1d momentum", 0.9f)
        .batchSize("--BATCH_SIZE", 8).epochs("EPOCH", 20).learningRate("--LEARNING_RATE", 1e-5f)
        .weightDecay("--WEIGHT_DECAY", 1e-5f).lossThreshold("LOSS_THRESHOLD", 0.1).relabelings("NUM_RELABEL", 32);
  }

  @Test
  void pairTablesFollowBrecsLayoutWithUnreachablePairsInTheirOwnRow() {
    // the path 0-1-2 and the isolated vertex 3, max_dis 1: pair (u, v) is row 4u + v
    Graph g = Graph.fromEdges(4, 0, 1, 1, 2);
    SswlBlock b = new SswlBlock(ModelSpec.parse("sswl-p:layers=1,hidden=4,radius=1"));
    try (NDManager m = NDManager.newBaseManager(Device.cpu())) {
      NDList in = b.encode(m, List.of(g));
      long[] dist = in.get(0).toLongArray();
      assertThat(dist).containsExactly(0, 1, 1, 2, 1, 0, 1, 2, 1, 1, 0, 2, 2, 2, 2, 0); // d(0, 2) = 2 capped at 1; unreachable: row 2
      long[] local = in.get(1).toLongArray(); // uL: (u, v) from (u, w), w ~ v; padding 16
      assertThat(new long[] {local[2 * 1], local[2 * 1 + 1]}).containsExactly(0, 2); // (0, 1) from (0, 0), (0, 2)
      long[] across = in.get(2).toLongArray(); // vL: (u, v) from (w, v), w ~ u
      assertThat(new long[] {across[2 * 6], across[2 * 6 + 1]}).containsExactly(2, 10); // (1, 2) from (0, 2), (2, 2)
      assertThat(in.get(3).toLongArray()[4 * 2 + 3]).isEqualTo(15); // vv: (2, 3) from (3, 3)
    }
  }

  @Test
  void oneEmbeddingOfWidthDPerGraphOfAnySizeConnectedOrNot() {
    // two triangles: BREC's committed code fails on such a graph (its unreachable distance is INT64_MIN)
    float[][] e = embed(ModelSpec.parse("sswl-p:layers=2,hidden=8,d=4,radius=2"), Constructions.prism(),
        Constructions.cycle(3), twoTriangles(), Constructions.cycle(7));
    assertOneEmbeddingPerGraph(e, 4, 4);
  }

  @Test
  void separatesTwoTrianglesFromTheHexagonButNotTwoStronglyRegularGraphs3WlCannot() {
    // two triangles and the 6-cycle: 1-WL equivalent, told apart by distances (and unreachable pairs).
    // The 4×4 rook graph and the Shrikhande graph: both SRG(16, 6, 2, 2), 3-WL equivalent, and SSWL is
    // bounded by 3-WL (2-FWL): no weights can separate them (BREC: SSWL_P 0 of its strongly regular pairs)
    ModelSpec s = ModelSpec.parse("sswl-p:layers=3,hidden=16");
    float[][] small = embed(s, twoTriangles(), Constructions.cycle(6), twoTriangles().relabel(new int[] {4, 0, 5, 2, 1, 3}));
    double smallNoise = Math.max(1e-6, maxDiff(small[0], small[2]));
    assertThat(maxDiff(small[0], small[1])).isGreaterThan(30 * smallNoise);

    assertRookAndShrikhandeAlike(s);
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertRefusedInOneLine("sswl-p:max_dis=8", "unknown key 'max_dis'");
    assertRefusedInOneLine("sswl-p:radius=0", "radius must lie in");
    assertRefusedInOneLine("sswl-p:pe=4", "pe is not an sswl-p option");
  }
}
