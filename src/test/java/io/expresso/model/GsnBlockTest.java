package io.expresso.model;

import static io.expresso.model.BrecModelChecks.assertOneEmbeddingPerGraph;
import static io.expresso.model.BrecModelChecks.assertRefusedInOneLine;
import static io.expresso.model.BrecModelChecks.defaultsOf;
import static io.expresso.model.BrecModelChecks.maxDiff;
import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import org.junit.jupiter.api.Test;

/** GSN-e as BREC's GSN script builds it (GsnBlock): its settings, its reach and its refusals. */
class GsnBlockTest {

  private static float[][] embed(Graph... graphs) {
    return BrecModelChecks.embed(ModelSpec.defaults(Architecture.GSN), graphs);
  }

  @Test
  void defaultsAreThoseOfBrecsGsnSearchScript() {
    // GSN/test_BREC_search.py: --num_layers 4 --d_out 64, k 4, id_scope local; test_BREC.py:
    // OUTPUT_DIM 16, BATCH_SIZE 16, EPOCH 20, LEARNING_RATE 1e-4, WEIGHT_DECAY 1e-5, LOSS_THRESHOLD 0.1
    defaultsOf(Architecture.GSN).layers("--num_layers", 4).hidden("--d_out", 64).embedding("OUTPUT_DIM", 16)
        .batchSize("BATCH_SIZE", 16).epochs("EPOCH", 20).learningRate("LEARNING_RATE", 1e-4f)
        .weightDecay("WEIGHT_DECAY", 1e-5f).lossThreshold("LOSS_THRESHOLD", 0.1);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraph() {
    assertOneEmbeddingPerGraph(embed(Constructions.prism(), Constructions.completeBipartite(3, 3), Constructions.cycle(7)),
        3, 16);
  }

  @Test
  void trianglesSeparateThePrismFromK33ButCyclesOfFiveAndSixAreBeyondFourVertexCounts() {
    // prism and K3,3: both 3-regular on 6 vertices (1-WL equivalent); only the prism has triangles,
    // which GSN's counts see on every edge. Decalin and bicyclopentyl: 1-WL equivalent and free of
    // 3- and 4-cycles, so every induced 3- and 4-vertex subgraph is a tree 1-WL already sees: GSN
    // with k = 4 cannot tell them apart (BREC's GSN-e counts stop at 4 vertices)
    Graph prism = Constructions.prism();
    Graph decalin = Constructions.decalin();
    float[][] e = embed(prism, Constructions.completeBipartite(3, 3), prism.relabel(new int[] {5, 3, 1, 0, 2, 4}),
        decalin, Constructions.bicyclopentyl(), decalin.relabel(new int[] {3, 7, 0, 9, 1, 5, 8, 2, 6, 4}));
    double noise = Math.max(1e-6, maxDiff(e[0], e[2]));
    assertThat(maxDiff(e[0], e[1])).isGreaterThan(1000 * noise);
    double decalinNoise = Math.max(1e-6, maxDiff(e[3], e[5]));
    assertThat(maxDiff(e[3], e[4])).isLessThan(20 * decalinNoise);
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertRefusedInOneLine("gsn:colour=1", "unknown key 'colour'");
    assertRefusedInOneLine("gsn:layers=0", "layers must lie in");
  }
}
