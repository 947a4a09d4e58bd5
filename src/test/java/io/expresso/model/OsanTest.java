package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.stats.ThresholdRule;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import io.expresso.train.EvaluationSettings;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluator;
import io.expresso.train.SiameseTrainer;
import io.expresso.train.TrainingSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OSAN as BREC's OSAN/test_BREC_search.py runs it (OsanBlock, EdgeScorer, EdgeDeletion). */
class OsanTest {

  private static final ModelSpec SMALL = ModelSpec.parse("osan:layers=3,hidden=16,d=8");

  private static double maxDiff(float[] a, float[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d = Math.max(d, Math.abs(a[k] - b[k]));
    }
    return d;
  }

  @Test
  void defaultsAreThoseOfBrecsOsanConfigs() {
    // OSAN/configs/brec/common_configs.yaml: model ogb_originalgin, num_convlayers 8, hid_size 64, dropout 0;
    // edge_del/del1_subgraph20_imle_*.yaml: sample_policy edge, sample_k -1, num_subgraphs 20, add_full_graph,
    // imle_configs embd_lr 1e-3, reg_embd 0, beta 10, noise_scale 1, aux_loss_weight 1; OUTPUT_DIM 16,
    // EPOCH 40, LEARNING_RATE 1e-3, BATCH_SIZE 16, WEIGHT_DECAY 1e-5, LOSS_THRESHOLD 0.0, THRESHOLD 72.34
    ModelSpec s = ModelSpec.defaults(Architecture.OSAN);
    assertThat(s.layers()).as("num_convlayers").isEqualTo(8);
    assertThat(s.hidden()).as("hid_size").isEqualTo(64);
    assertThat(s.embedding()).as("OUTPUT_DIM").isEqualTo(16);
    assertThat(s.bnMomentum()).as("BatchNorm1d's momentum 0.1").isEqualTo(0.9f);
    assertThat(OsanBlock.SAMPLED).as("num_subgraphs").isEqualTo(20);
    assertThat(OsanBlock.BETA).as("beta").isEqualTo(10f);
    assertThat(OsanBlock.SCORER_LEARNING_RATE).as("embd_lr").isEqualTo(1e-3f);
    assertThat(OsanBlock.AUX_LOSS_WEIGHT).as("aux_loss_weight").isEqualTo(1f);
    TrainingSettings t = TrainingSettings.defaults(Architecture.OSAN);
    assertThat(t.epochs()).as("EPOCH").isEqualTo(40);
    assertThat(t.batchSize()).as("BATCH_SIZE").isEqualTo(16);
    assertThat(t.learningRate()).as("LEARNING_RATE").isEqualTo(1e-3f);
    assertThat(t.weightDecay()).as("WEIGHT_DECAY").isEqualTo(1e-5f);
    assertThat(t.lossThreshold()).as("LOSS_THRESHOLD").isEqualTo(0.0);
    assertThat(t.q()).as("NUM_RELABEL").isEqualTo(32);
    assertThat(EvaluationSettings.defaults(s).threshold()).as("THRESHOLD 72.34").isEqualTo(new ThresholdRule.Rpc(0.05));
  }

  @Test
  void eachColumnDeletesTheUndirectedEdgeOfLeastSummedScoreTheLastPairOnTies() {
    // the path 0-1-2: directed edges 0→1, 1→0, 1→2, 2→1 (by source, then neighbour)
    EdgeDeletion path = EdgeDeletion.of(List.of(Graph.fromEdges(3, 0, 1, 1, 2)));
    assertThat(path.src()).containsExactly(0, 1, 1, 2);
    assertThat(path.dst()).containsExactly(1, 0, 2, 1);
    assertThat(path.reverse()).containsExactly(1, 0, 3, 2);
    // column 0: {0,1} sums 1 + 1, {1,2} sums 3 + (-2) = 1: {1,2} goes; column 1: both sum 0: the later pair {1,2}
    // goes; column 2: {0,1} sums -1
    float[] theta = {1, 0, 1, 1, 0, -2, 3, 0, 1, -2, 0, 1};
    assertThat(path.keep(theta, 3)).containsExactly(1, 1, 0, 1, 1, 0, 0, 0, 1, 0, 0, 1);
    // a second graph of the batch is solved on its own: its rows follow the first's
    EdgeDeletion two = EdgeDeletion.of(List.of(Graph.fromEdges(2, 0, 1), Graph.fromEdges(3, 0, 1, 1, 2)));
    assertThat(two.first()).containsExactly(0, 2, 6);
    assertThat(two.keep(new float[6], 1)).containsExactly(0, 0, 1, 1, 0, 0);
  }

  @Test
  void oneDeterministicEmbeddingOfWidthDPerGraph() {
    List<Graph> graphs = List.of(Constructions.prism(), Constructions.cycle(3), Constructions.cycle(7),
        Graph.fromEdges(3, 0, 1));
    try (GraphModel m = GraphModel.create(SMALL, Head.EMBEDDING, Device.cpu(), 3)) {
      float[][] e = m.embed(graphs);
      assertThat(e).hasNumberOfRows(4);
      for (float[] row : e) {
        assertThat(row).hasSize(8).doesNotContain(Float.NaN);
      }
      assertThat(m.embed(graphs)).as("evaluation samples no noise").isDeepEqualTo(e);
    }
  }

  /** k disjoint cycles of length m. */
  private static Graph cycles(int k, int m) {
    int[] e = new int[2 * k * m];
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < m; i++) {
        e[2 * (c * m + i)] = c * m + i;
        e[2 * (c * m + i) + 1] = c * m + (i + 1) % m;
      }
    }
    return Graph.fromEdges(k * m, e);
  }

  @Test
  void edgeDeletedSubgraphsSeparateDecalinFromBicyclopentylButNotLongCyclesBeyondTheLayers() {
    // 1-WL sees decalin and bicyclopentyl alike; deleting a ring edge between two degree-2 vertices leaves two
    // chains on different bridgeheads in one, on the same in the other, which 1-WL tells apart. C16 and two C8
    // are edge-transitive: every edge-deleted subgraph is a 16-path, or an 8-path beside an 8-cycle, and a
    // 3-layer GIN sees the same multiset of 3-hop views in both (ten vertices beyond 3 hops of a path's end,
    // the ends alike), as in the full graphs. Through training (one epoch, 3 layers: seconds) and the T² judgement
    TrainingSettings t = TrainingSettings.defaults(Architecture.OSAN).withEpochs(1);
    PairEvaluation rings = PairEvaluator.evaluate(new GraphPair(0, "test", Constructions.decalin(),
        Constructions.bicyclopentyl(), null), SMALL, t, 1, Device.cpu());
    assertThat(rings.judgement().reliablyDistinguished()).as("%s", rings.judgement()).isTrue();
    PairEvaluation longCycles = PairEvaluator.evaluate(new GraphPair(1, "test", Constructions.cycle(16), cycles(2, 8),
        null), SMALL, t, 1, Device.cpu());
    assertThat(longCycles.judgement().distinguished()).as("%s", longCycles.judgement()).isFalse();
    assertThat(longCycles.judgement().reliable()).as("%s", longCycles.judgement()).isTrue();
  }

  @Test
  void trainingMovesTheScorerThroughImleAndASeedReproducesIt() {
    List<Graph> major = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      major.add(Constructions.decalin());
      major.add(Constructions.bicyclopentyl());
    }
    TrainingSettings t = TrainingSettings.defaults(Architecture.OSAN).withEpochs(1).withBatchSize(4);
    float[][] after = new float[3][];
    float[] before = null;
    for (int run = 0; run < 3; run++) {
      try (GraphModel m = GraphModel.create(SMALL, Head.EMBEDDING, Device.cpu(), run < 2 ? 5 : 6)) {
        String logits = m.parameterNames().stream().filter(n -> n.contains("linEdge") && n.endsWith("weight"))
            .findFirst().orElseThrow();
        if (run == 0) {
          before = m.parameterValues(logits);
        }
        SiameseTrainer.train(m, major, t);
        after[run] = m.embed(List.of(Constructions.decalin(), Constructions.bicyclopentyl()))[0];
        if (run == 0) {
          assertThat(maxDiff(m.parameterValues(logits), before)).as("the scorer learns").isGreaterThan(0);
        }
      }
    }
    assertThat(after[1]).as("the same seed: the same noise, the same model").isEqualTo(after[0]);
    assertThat(after[2]).isNotEqualTo(after[0]);
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertThatThrownBy(() -> ModelSpec.parse("osan:subgraphs=10")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown key 'subgraphs'").hasMessageContaining("osan takes: layers, hidden, d,")
        .hasMessageNotContaining("radius").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("osan:hidden=0")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hidden must lie in").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("osan:radius=2")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("radius is not an osan option").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> ModelSpec.parse("osan:pe=4")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pe is not an osan option").hasMessageNotContaining("\n");
    ModelSpec s = ModelSpec.parse("osan:layers=3,hidden=16,d=8,bn-momentum=0.5");
    assertThat(ModelSpec.parse(s.toText())).as(s.toText()).isEqualTo(s);
    assertThatThrownBy(() -> RegressorSpec.parse("osan")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("osan is not a count-regression body").hasMessageNotContaining("\n");
  }
}
