package io.expresso.model;

import static io.expresso.model.BrecModelChecks.assertOneEmbeddingPerGraph;
import static io.expresso.model.BrecModelChecks.assertRefusedInOneLine;
import static io.expresso.model.BrecModelChecks.assertRookAndShrikhandeAlike;
import static io.expresso.model.BrecModelChecks.defaultsOf;
import static io.expresso.model.BrecModelChecks.embed;

import io.expresso.suite.Constructions;
import org.junit.jupiter.api.Test;

/** SUN as BREC's SUN/test_BREC_sun.py builds it (SunBlock). */
class SunTest {

  @Test
  void defaultsAreThoseOfBrecsSunSearchScript() {
    // SUN/test_BREC_search_sun.py: --num_hops=6 --num_layer=9 --emb_dim=32 --BATCH_SIZE=32
    // --LEARNING_RATE=1e-4 --WEIGHT_DECAY=1e-4 --LOSS_THRESHOLD=0.01 --EPOCH 20; OUTPUT_DIM 16,
    // NUM_RELABEL 32; nn.BatchNorm1d's momentum 0.1 (DJL's 0.9)
    defaultsOf(Architecture.SUN).radius("--num_hops", 6).layers("--num_layer", 9).hidden("--emb_dim", 32)
        .embedding("OUTPUT_DIM", 16).bnMomentum("nn.BatchNorm1d momentum", 0.9f)
        .batchSize("--BATCH_SIZE", 32).epochs("--EPOCH", 20).learningRate("--LEARNING_RATE", 1e-4f)
        .weightDecay("--WEIGHT_DECAY", 1e-4f).lossThreshold("--LOSS_THRESHOLD", 0.01).relabelings("NUM_RELABEL", 32);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraphOfAnySize() {
    float[][] e = embed(ModelSpec.parse("sun:layers=2,hidden=8,d=4,radius=2"), Constructions.prism(),
        Constructions.cycle(3), Constructions.cycle(7));
    assertOneEmbeddingPerGraph(e, 3, 4);
  }

  @Test
  void rootMarkedSubgraphsSeparateDecalinButNotTwoStronglyRegularGraphs3WlCannot() {
    // decalin and bicyclopentyl: 1-WL equivalent, separated by node-marked subgraphs (GraphModelTest
    // checks it for every subgraph model). The 4×4 rook graph and the Shrikhande graph: both
    // SRG(16, 6, 2, 2), 3-WL equivalent, and SUN is bounded by 3-WL: no weights can separate them
    assertRookAndShrikhandeAlike(ModelSpec.parse("sun:layers=3,hidden=16"));
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertRefusedInOneLine("sun:transpose=true", "unknown key 'transpose'");
    assertRefusedInOneLine("sun:hidden=0", "hidden must lie in");
  }
}
