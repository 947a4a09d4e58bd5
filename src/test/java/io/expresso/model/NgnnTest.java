package io.expresso.model;

import static io.expresso.model.BrecModelChecks.assertOneEmbeddingPerGraph;
import static io.expresso.model.BrecModelChecks.assertRefusedInOneLine;
import static io.expresso.model.BrecModelChecks.defaultsOf;
import static io.expresso.model.BrecModelChecks.maxDiff;
import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import org.junit.jupiter.api.Test;

/** BREC's plain NGNN: NestedGIN on rooted 1-hop subgraphs without node labels (NgnnDeBlock, Labels.NONE). */
class NgnnTest {

  private static float[][] embed(Graph... graphs) {
    return BrecModelChecks.embed(ModelSpec.defaults(Architecture.NGNN), graphs);
  }

  @Test
  void defaultsAreThoseOfBrecsNgnnSearchScript() {
    // NestedGNN/test_BREC_search_ngnn.py: --h=1 --layers=6 --width=16 --OUTPUT_DIM=16 --BATCH_SIZE=32
    // --LEARNING_RATE=1e-4 --WEIGHT_DECAY=1e-5 --node_label=no; test_BREC.py: --EPOCH default 30,
    // LOSS_THRESHOLD 0.01, bn2 BatchNorm(momentum=1.0, affine=False)
    defaultsOf(Architecture.NGNN).radius("--h", 1).layers("--layers", 6).hidden("--width", 16)
        .embedding("--OUTPUT_DIM", 16).bnMomentum("bn2 momentum 1.0", 0f).batchSize("--BATCH_SIZE", 32)
        .epochs("--EPOCH", 30).learningRate("--LEARNING_RATE", 1e-4f).weightDecay("--WEIGHT_DECAY", 1e-5f)
        .lossThreshold("LOSS_THRESHOLD", 0.01).relabelings("NUM_RELABEL", 32);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraph() {
    assertOneEmbeddingPerGraph(embed(Constructions.prism(), Constructions.cycle(5)), 2, 16);
  }

  @Test
  void egoNetsSeeTrianglesButNotLongerCycles() {
    // prism and K3,3 (1-WL equivalent): the prism's 1-hop ego-nets hold an edge among the
    // neighbours (a triangle), K3,3's are stars; NGNN separates them. Decalin and bicyclopentyl:
    // triangle-free with the same degrees, so both have two K1,3 and eight K1,2 ego-nets, unlabelled:
    // the same multiset of subgraphs, which no NGNN without labels can tell apart
    Graph prism = Constructions.prism();
    Graph decalin = Constructions.decalin();
    float[][] e = embed(prism, Constructions.completeBipartite(3, 3), prism.relabel(new int[] {5, 3, 1, 0, 2, 4}),
        decalin, Constructions.bicyclopentyl(), decalin.relabel(new int[] {3, 7, 0, 9, 1, 5, 8, 2, 6, 4}));
    double noise = Math.max(1e-6, maxDiff(e[0], e[2]));
    assertThat(maxDiff(e[0], e[1])).isGreaterThan(100 * noise);
    double decalinNoise = Math.max(1e-6, maxDiff(e[3], e[5]));
    assertThat(maxDiff(e[3], e[4])).isLessThan(10 * decalinNoise);
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertRefusedInOneLine("ngnn:labels=hop", "unknown key 'labels'");
    assertRefusedInOneLine("ngnn:radius=0", "radius must lie in");
    assertRefusedInOneLine("ngnn:node-labels=3", "node-labels");
  }
}
