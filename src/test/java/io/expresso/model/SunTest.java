package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.train.TrainingSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SUN as BREC's SUN/test_BREC_sun.py builds it (SunBlock). */
class SunTest {

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
  void defaultsAreThoseOfBrecsSunSearchScript() {
    // SUN/test_BREC_search_sun.py: --num_hops=6 --num_layer=9 --emb_dim=32 --BATCH_SIZE=32
    // --LEARNING_RATE=1e-4 --WEIGHT_DECAY=1e-4 --LOSS_THRESHOLD=0.01 --EPOCH 20; OUTPUT_DIM 16,
    // NUM_RELABEL 32; nn.BatchNorm1d's momentum 0.1 (DJL's 0.9)
    ModelSpec s = ModelSpec.defaults(Architecture.SUN);
    assertThat(s.radius()).as("--num_hops").isEqualTo(6);
    assertThat(s.layers()).as("--num_layer").isEqualTo(9);
    assertThat(s.hidden()).as("--emb_dim").isEqualTo(32);
    assertThat(s.embedding()).as("OUTPUT_DIM").isEqualTo(16);
    assertThat(s.bnMomentum()).isEqualTo(0.9f);
    TrainingSettings t = TrainingSettings.defaults(Architecture.SUN);
    assertThat(t.batchSize()).as("--BATCH_SIZE").isEqualTo(32);
    assertThat(t.epochs()).as("--EPOCH").isEqualTo(20);
    assertThat(t.learningRate()).as("--LEARNING_RATE").isEqualTo(1e-4f);
    assertThat(t.weightDecay()).as("--WEIGHT_DECAY").isEqualTo(1e-4f);
    assertThat(t.lossThreshold()).as("--LOSS_THRESHOLD").isEqualTo(0.01);
    assertThat(t.q()).as("NUM_RELABEL").isEqualTo(32);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraphOfAnySize() {
    float[][] e = embed(ModelSpec.parse("sun:layers=2,hidden=8,d=4,radius=2"), Constructions.prism(),
        Constructions.cycle(3), Constructions.cycle(7));
    assertThat(e).hasNumberOfRows(3);
    for (float[] row : e) {
      assertThat(row).hasSize(4).doesNotContain(Float.NaN);
    }
  }

  @Test
  void rootMarkedSubgraphsSeparateDecalinButNotTwoStronglyRegularGraphs3WlCannot() {
    // decalin and bicyclopentyl: 1-WL equivalent, separated by node-marked subgraphs (GraphModelTest
    // checks it for every subgraph model). The 4×4 rook graph and the Shrikhande graph: both
    // SRG(16, 6, 2, 2), 3-WL equivalent, and SUN is bounded by 3-WL: no weights can separate them
    ModelSpec s = ModelSpec.parse("sun:layers=3,hidden=16");
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
    assertThatThrownBy(() -> ModelSpec.parse("sun:transpose=true")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown key 'transpose'").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("sun:hidden=0")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hidden must lie in").hasMessageNotContaining("\n");
  }
}
