package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.train.TrainingSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** BREC's plain NGNN: NestedGIN on rooted 1-hop subgraphs without node labels (NgnnDeBlock, Labels.NONE). */
class NgnnTest {

  private static double maxDiff(float[] a, float[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d = Math.max(d, Math.abs(a[k] - b[k]));
    }
    return d;
  }

  private static float[][] embed(Graph... graphs) {
    try (GraphModel m = GraphModel.create(ModelSpec.defaults(Architecture.NGNN), Head.EMBEDDING, Device.cpu(), 3)) {
      return m.embed(List.of(graphs));
    }
  }

  @Test
  void defaultsAreThoseOfBrecsNgnnSearchScript() {
    // NestedGNN/test_BREC_search_ngnn.py: --h=1 --layers=6 --width=16 --OUTPUT_DIM=16 --BATCH_SIZE=32
    // --LEARNING_RATE=1e-4 --WEIGHT_DECAY=1e-5 --node_label=no; test_BREC.py: --EPOCH default 30,
    // LOSS_THRESHOLD 0.01, bn2 BatchNorm(momentum=1.0, affine=False)
    ModelSpec s = ModelSpec.defaults(Architecture.NGNN);
    assertThat(s.radius()).as("--h").isEqualTo(1);
    assertThat(s.layers()).as("--layers").isEqualTo(6);
    assertThat(s.hidden()).as("--width").isEqualTo(16);
    assertThat(s.embedding()).as("--OUTPUT_DIM").isEqualTo(16);
    assertThat(s.bnMomentum()).as("bn2 momentum 1.0").isZero();
    TrainingSettings t = TrainingSettings.defaults(Architecture.NGNN);
    assertThat(t.batchSize()).as("--BATCH_SIZE").isEqualTo(32);
    assertThat(t.epochs()).as("--EPOCH").isEqualTo(30);
    assertThat(t.learningRate()).as("--LEARNING_RATE").isEqualTo(1e-4f);
    assertThat(t.weightDecay()).as("--WEIGHT_DECAY").isEqualTo(1e-5f);
    assertThat(t.lossThreshold()).as("LOSS_THRESHOLD").isEqualTo(0.01);
    assertThat(t.q()).as("NUM_RELABEL").isEqualTo(32);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraph() {
    float[][] e = embed(Constructions.prism(), Constructions.cycle(5));
    assertThat(e).hasNumberOfRows(2);
    assertThat(e[0]).hasSize(16);
    assertThat(e[1]).hasSize(16);
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
    assertThatThrownBy(() -> ModelSpec.parse("ngnn:labels=hop")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown key 'labels'").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("ngnn:radius=0")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("radius must lie in").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("ngnn:node-labels=3")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node-labels").hasMessageNotContaining("\n");
  }
}
