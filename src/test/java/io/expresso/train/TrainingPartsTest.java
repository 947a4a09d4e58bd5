package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.iso.Isomorphism;
import io.expresso.model.Architecture;
import io.expresso.engine.NativeEngine;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Relabelings;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TrainingPartsTest {

  @Test
  void cosineEmbeddingLossMatchesAHandComputedValue() {
    NativeEngine.start();
    try (NDManager m = NDManager.newBaseManager()) {
      // pairs: (1,0)/(1,1): cos 1/√2; (1,0)/(-1,0): cos -1 → 0; mean = (0.70711 + 0) / 2
      NDArray e = m.create(new float[] {1, 0, 1, 1, 1, 0, -1, 0}, new Shape(4, 2));
      assertThat(CosineEmbeddingLoss.of(e).getFloat()).isCloseTo((float) (Math.sqrt(0.5) / 2), within(1e-6f));
      assertThatThrownBy(() -> CosineEmbeddingLoss.of(m.create(new float[] {1, 2, 3}, new Shape(3, 1))))
          .hasMessageContaining("even row count");
      // tiny embeddings keep their cosine, as PyTorch's (1e-12 on each squared norm): torch 2.13's
      // CosineEmbeddingLoss(target -1) gives 0.99999899 for two equal rows of norm 1e-3, 0.5 at norm 1e-6
      assertThat(CosineEmbeddingLoss.of(m.create(new float[] {1e-3f, 0, 1e-3f, 0}, new Shape(2, 2))).getFloat())
          .isCloseTo(0.99999899f, within(1e-6f));
      assertThat(CosineEmbeddingLoss.of(m.create(new float[] {1e-6f, 0, 1e-6f, 0}, new Shape(2, 2))).getFloat())
          .isCloseTo(0.5f, within(1e-3f));
    }
  }

  @Test
  void plateauScheduleHalvesAfterPatienceRunsOut() {
    PlateauSchedule s = new PlateauSchedule(1e-3f, 0.5f, 2, 1e-4f);
    s.afterEpoch(1, 1.0);
    s.afterEpoch(2, 1.0); // 1 bad epoch
    s.afterEpoch(3, 1.0); // 2 bad epochs: still within patience
    assertThat(s.rate()).isEqualTo(1e-3f);
    s.afterEpoch(4, 1.0); // 3 > patience: reduce
    assertThat(s.rate()).isEqualTo(5e-4f);
    s.afterEpoch(5, 0.5); // improvement resets
    for (int e = 6; e < 30; e++) {
      s.afterEpoch(e, 0.5);
    }
    assertThat(s.rate()).isEqualTo(1e-4f); // floored at the minimum
    assertThat(new LossThresholdStop(0.2).afterEpoch(1, 0.19)).isTrue();
    assertThat(new LossThresholdStop(0.2).afterEpoch(1, 0.2)).isFalse();
  }

  @Test
  void divergenceGuardSkipsNonFiniteSteps() {
    DivergenceGuard g = new DivergenceGuard();
    assertThat(g.accept(0.5f)).isTrue();
    assertThat(g.accept(Float.NaN)).isFalse();
    assertThat(g.accept(Float.POSITIVE_INFINITY)).isFalse();
    assertThat(g.skipped()).isEqualTo(2);
  }

  @Test
  void drawnRelabelingsAreIsomorphicSeededAndVaried() {
    GraphPair p = new GraphPair(4, "x", Constructions.decalin(), Constructions.bicyclopentyl(), null);
    Relabelings a = RelabelingDraw.forPair(p, 32, 9);
    Relabelings b = RelabelingDraw.forPair(p, 32, 9);
    assertThat(a).isEqualTo(b);
    assertThat(a.q()).isEqualTo(32);
    Set<Graph> distinct = new HashSet<>(a.first());
    assertThat(distinct.size()).isGreaterThan(20);
    for (Graph g : a.first()) {
      assertThat(Isomorphism.isomorphic(g, p.first())).isTrue();
    }
    for (Graph g : a.second()) {
      assertThat(Isomorphism.isomorphic(g, p.second())).isTrue();
    }
    assertThat(RelabelingDraw.forPair(p, 32, 10).first()).isNotEqualTo(a.first());
    List<Graph> inter = RelabelingDraw.interleave(a.first(), a.second());
    assertThat(inter.get(0)).isEqualTo(a.first().get(0));
    assertThat(inter.get(1)).isEqualTo(a.second().get(0));
    int[] perm = new SplitMix64(1).permutation(7);
    assertThat(perm).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6);
  }

  @Test
  void settingsRejectBadValuesNamingThem() {
    TrainingSettings t = TrainingSettings.defaults(Architecture.PPGN);
    assertThat(t.q()).isEqualTo(32);
    assertThat(t.lossThreshold()).isEqualTo(0.2);
    assertThatThrownBy(() -> t.withBatchSize(5)).hasMessageContaining("batch size must be even");
    assertThatThrownBy(() -> t.withQ(1)).hasMessageContaining("q must be at least 2");
    assertThatThrownBy(() -> io.expresso.stats.ThresholdRule.of("bonferroni", 0.05)).hasMessageContaining("expected rpc, rapc or a T² value");
  }
}
