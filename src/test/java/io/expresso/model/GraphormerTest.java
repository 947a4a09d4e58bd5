package io.expresso.model;

import static io.expresso.model.BrecModelChecks.assertOneEmbeddingPerGraph;
import static io.expresso.model.BrecModelChecks.assertRefusedInOneLine;
import static io.expresso.model.BrecModelChecks.defaultsOf;
import static io.expresso.model.BrecModelChecks.embed;
import static io.expresso.model.BrecModelChecks.maxDiff;
import static io.expresso.model.BrecModelChecks.rookRelabelling;
import static io.expresso.model.BrecModelChecks.twoTriangles;
import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.ParameterStore;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import io.expresso.train.EvaluationSettings;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluator;
import io.expresso.train.SiameseTrainer;
import io.expresso.train.TrainingSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Graphormer as BREC's Graphormer/graphormer/test_BREC.py builds it (GraphormerBlock). */
class GraphormerTest {

  private static final ModelSpec SMALL = ModelSpec.parse("graphormer:layers=3,hidden=16,d=8");

  @Test
  void defaultsAreThoseOfBrecsGraphormerSearchScript() {
    // Graphormer/graphormer/test_BREC_search.py: --ffn_dim 80 --hidden_dim 80 --num_heads 8 --n_layers 12
    // --EPOCH=100 --LEARNING_RATE 2e-5 --WEIGHT_DECAY 0.0 --BATCH_SIZE 16; test_BREC.py: OUTPUT_DIM 16,
    // NUM_RELABEL 32, LOSS_THRESHOLD 0.0; model.py's attention_dropout_rate default 0.1
    defaultsOf(Architecture.GRAPHORMER).layers("--n_layers", 12).hidden("--hidden_dim (and --ffn_dim)", 80)
        .embedding("OUTPUT_DIM", 16).batchSize("--BATCH_SIZE", 16).epochs("--EPOCH", 100)
        .learningRate("--LEARNING_RATE", 2e-5f).weightDecay("--WEIGHT_DECAY", 0f).lossThreshold("LOSS_THRESHOLD", 0.0)
        .relabelings("NUM_RELABEL", 32);
    assertThat(GraphormerBlock.HEADS).as("--num_heads").isEqualTo(8);
    assertThat(GraphormerBlock.ATTENTION_DROPOUT).as("attention_dropout_rate").isEqualTo(0.1f);
  }

  @Test
  void oneEmbeddingOfWidthDPerGraphAndPaddingChangesNone() {
    // a batch of three sizes pads the smaller graphs; each comes out as it does alone
    Graph c3 = Constructions.cycle(3);
    float[][] batch = embed(SMALL, Constructions.prism(), c3, Constructions.cycle(7));
    assertOneEmbeddingPerGraph(batch, 3, 8);
    assertThat(maxDiff(batch[1], embed(SMALL, c3)[0])).isLessThan(1e-5);
  }

  /**
   * The block's outputs with every weight drawn N(0, 0.5): BREC's start (N(0, 0.02), N(0, 0.02/√L))
   * leaves differences near float noise, which training grows (the next test); what the
   * architecture can and cannot tell apart is a property of every weight.
   */
  private static float[][] wideWeights(Graph... graphs) {
    Engine.getInstance().setRandomSeed(11);
    GraphormerBlock block = new GraphormerBlock(SMALL);
    try (NDManager m = NDManager.newBaseManager()) {
      block.initialize(m, DataType.FLOAT32, new Shape(1));
      for (var p : block.getParameters().values()) {
        NDArray w = p.getArray();
        w.set(m.randomNormal(0f, 0.5f, w.getShape(), DataType.FLOAT32).toFloatArray());
      }
      NDArray y = block.forward(new ParameterStore(m, false), block.encode(m, List.of(graphs)), false).singletonOrThrow();
      float[][] out = new float[graphs.length][];
      for (int i = 0; i < graphs.length; i++) {
        out[i] = y.get(i).toFloatArray();
      }
      return out;
    }
  }

  @Test
  void distancesSeparateWhatOneWlCannotButNotTwoStronglyRegularGraphs() {
    // decalin and bicyclopentyl, and a 6-cycle and two triangles (unreachable pairs): 1-WL
    // equivalent, their distance multisets differ, so SPD-WL and Graphormer's spatial encoding tell
    // them apart (Ying et al. 2021, section 3). The 4×4 rook graph and the Shrikhande graph: both
    // SRG(16, 6, 2, 2), every vertex sees the same degrees and distances: no weights can separate them
    Graph decalin = Constructions.decalin();
    Graph rook = Constructions.rook(4);
    float[][] e = wideWeights(decalin, Constructions.bicyclopentyl(), decalin.relabel(new int[] {3, 7, 0, 9, 1, 5, 8,
        2, 6, 4}), Constructions.cycle(6), twoTriangles(), rook, Constructions.shrikhande(), rook.relabel(rookRelabelling()));
    double noise = Math.max(1e-6, Math.max(maxDiff(e[0], e[2]), maxDiff(e[5], e[7])));
    assertThat(maxDiff(e[0], e[1])).isGreaterThan(1e-3).isGreaterThan(1000 * noise);
    assertThat(maxDiff(e[3], e[4])).isGreaterThan(1e-3).isGreaterThan(1000 * noise);
    assertThat(maxDiff(e[5], e[6])).isLessThan(10 * noise);
  }

  @Test
  void brecsGraphormerTrainsOnAPairAndTellsDecalinFromBicyclopentylByT2() {
    // the real path: siamese training (attention dropout on), then T² on the pair and on its reliability check
    ModelSpec spec = ModelSpec.parse("graphormer:layers=2,hidden=16");
    EvaluationSettings s = EvaluationSettings.defaults(spec);
    s = s.withTraining(s.training().withEpochs(2).withLearningRate(1e-3f));
    PairEvaluation e = PairEvaluator.evaluate(new GraphPair(0, "Basic", Constructions.decalin(),
        Constructions.bicyclopentyl(), null), spec, s, 1L, Device.cpu());
    assertThat(e.training().epochs()).isEqualTo(2);
    assertThat(e.distinguished()).as("T²=%s", e.judgement().t2Test()).isTrue();
    assertThat(e.reliable()).as("reliability T²=%s", e.judgement().t2Reliability()).isTrue();
  }

  @Test
  void roundTripsThroughACheckpointWithItsFrozenEdgeRow(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("graphormer.ckpt");
    List<Graph> gs = List.of(Constructions.decalin(), twoTriangles());
    try (GraphModel m = GraphModel.create(SMALL, Head.EMBEDDING, Device.cpu(), 5)) {
      // BREC's edge_encoder row 0 (padding_idx, read for every non-adjacent pair): drawn N(0, 0.02) by init_params, never trained
      float[] padding = m.parameterValues("edge_encoder_padding");
      float[] edge = m.parameterValues("edge_encoder");
      List<Graph> major = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        major.add(Constructions.decalin());
        major.add(Constructions.bicyclopentyl());
      }
      SiameseTrainer.train(m, major, TrainingSettings.defaults(Architecture.GRAPHORMER).withEpochs(1).withLearningRate(1e-3f));
      assertThat(m.parameterValues("edge_encoder_padding")).hasSize(8).doesNotContain(0f).containsExactly(padding);
      assertThat(m.parameterValues("edge_encoder")).isNotEqualTo(edge);
      float[][] before = m.embed(gs);
      m.save(file);
      try (GraphModel back = GraphModel.load(file, Device.cpu())) {
        assertThat(back.spec()).isEqualTo(SMALL);
        assertThat(back.parameterValues("edge_encoder_padding")).containsExactly(m.parameterValues("edge_encoder_padding"));
        float[][] after = back.embed(gs);
        for (int i = 0; i < gs.size(); i++) {
          assertThat(after[i]).containsExactly(before[i]);
        }
      }
    }
  }

  @Test
  void badSpecsAreRefusedInOneLineNamingTheKey() {
    assertRefusedInOneLine("graphormer:heads=4", "unknown key 'heads'");
    assertRefusedInOneLine("graphormer:hidden=20", "hidden must be a multiple of graphormer's 8 heads, got 20");
    assertRefusedInOneLine("graphormer:layers=0", "layers must lie in");
    assertRefusedInOneLine("graphormer:pe=4", "pe is not a graphormer option");
    assertRefusedInOneLine("graphormer:radius=2", "radius is not a graphormer option");
    assertThat(Architecture.GRAPHORMER.keys()).containsExactly("layers", "hidden", "d", "budget");
    ModelSpec s = ModelSpec.parse("graphormer:layers=2,hidden=16,d=8");
    assertThat(s.toText()).isEqualTo("graphormer:layers=2,hidden=16,d=8");
    assertThat(ModelSpec.parse(s.toText())).isEqualTo(s);
  }
}
