package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.train.TrainingSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GSN-e as BREC's GSN script builds it (GsnBlock): its settings, its reach and its refusals. */
class GsnBlockTest {

  private static double maxDiff(float[] a, float[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d = Math.max(d, Math.abs(a[k] - b[k]));
    }
    return d;
  }

  private static float[][] embed(Graph... graphs) {
    try (GraphModel m = GraphModel.create(ModelSpec.defaults(Architecture.GSN), Head.EMBEDDING, Device.cpu(), 3)) {
      return m.embed(List.of(graphs));
    }
  }

  @Test
  void defaultsAreThoseOfBrecsGsnSearchScript() {
    // GSN/test_BREC_search.py: --num_layers 4 --d_out 64, k 4, id_scope local; test_BREC.py:
    // OUTPUT_DIM 16, BATCH_SIZE 16, EPOCH 20, LEARNING_RATE 1e-4, WEIGHT_DECAY 1e-5, LOSS_THRESHOLD 0.1
    ModelSpec s = ModelSpec.defaults(Architecture.GSN);
    assertThat(s.layers()).as("--num_layers").isEqualTo(4);
    assertThat(s.hidden()).as("--d_out").isEqualTo(64);
    assertThat(s.embedding()).as("OUTPUT_DIM").isEqualTo(16);
    TrainingSettings t = TrainingSettings.defaults(Architecture.GSN);
    assertThat(t.batchSize()).as("BATCH_SIZE").isEqualTo(16);
    assertThat(t.epochs()).as("EPOCH").isEqualTo(20);
    assertThat(t.learningRate()).as("LEARNING_RATE").isEqualTo(1e-4f);
    assertThat(t.weightDecay()).as("WEIGHT_DECAY").isEqualTo(1e-5f);
    assertThat(t.lossThreshold()).as("LOSS_THRESHOLD").isEqualTo(0.1);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraph() {
    float[][] e = embed(Constructions.prism(), Constructions.completeBipartite(3, 3), Constructions.cycle(7));
    assertThat(e).hasNumberOfRows(3);
    for (float[] row : e) {
      assertThat(row).hasSize(16);
    }
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
    assertThatThrownBy(() -> ModelSpec.parse("gsn:colour=1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown key 'colour'").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("gsn:layers=0")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("layers must lie in").hasMessageNotContaining("\n");
  }
}
