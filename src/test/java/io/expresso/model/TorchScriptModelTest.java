package io.expresso.model;

import io.expresso.engine.MemoryBudget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import io.expresso.train.EvaluationSettings;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A module saved by another PyTorch (Debian's 1.13; DJL runs 2.7.1) loads through DJL, trains per
 * pair exactly like the built-in models and is judged; modules that do not fit are refused naming
 * what is wrong.
 */
class TorchScriptModelTest {

  private static final GraphPair DECALIN = new GraphPair(0, "1-WL-equivalent", Constructions.decalin(),
      Constructions.bicyclopentyl(), null);
  private static final GraphPair STAR_PATH = new GraphPair(1, "1-WL-distinguishable",
      Graph.fromEdges(6, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5), Graph.fromEdges(6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5), null);

  private static EvaluationSettings settings(NetworkSpec spec) {
    return EvaluationSettings.defaults(spec);
  }

  @Test
  void sparseFixtureTellsOneWlDistinguishablePairsApartAndNotOneWlEquivalentOnes() {
    TorchScriptSpec spec = TorchScriptFixtures.spec("gin.pt");
    PairEvaluation d = PairEvaluator.evaluate(STAR_PATH, spec, settings(spec), 1L, Device.cpu());
    assertThat(d.distinguished()).as("T²=%s", d.judgement().t2Test()).isTrue();
    assertThat(d.reliable()).as("reliability T²=%s", d.judgement().t2Reliability()).isTrue();
    assertThat(d.parameters()).as("trainable scalars of 4 GIN layers of width 32, d 16").isEqualTo(
        ginParameters(1, 4, 32, 16));

    PairEvaluation e = PairEvaluator.evaluate(DECALIN, spec, settings(spec), 1L, Device.cpu());
    assertThat(e.distinguished()).as("T²=%s", e.judgement().t2Test()).isFalse();
    assertThat(e.reliable()).isTrue();
    // identical embeddings have cosine 1 whatever the weights: the loss cannot move off 1
    assertThat(e.training().finalLoss()).isGreaterThan(0.99);
    assertThat(e.training().epochs()).isEqualTo(20);
  }

  /** Linear + 2 batch norms (scale and shift) + Linear per layer, and a readout per layer. */
  private static long ginParameters(int features, int layers, int hidden, int d) {
    long total = 0;
    for (int l = 0; l < layers; l++) {
      int in = l == 0 ? features : hidden;
      total += (long) in * hidden + hidden + 2L * hidden + (long) hidden * hidden + hidden + 2L * hidden;
      total += (long) hidden * d + d;
    }
    return total;
  }

  @Test
  void trainingLowersTheLossIsDeterministicPerSeedAndResetParametersFollowsTheSeed() {
    TorchScriptSpec spec = TorchScriptFixtures.spec("gin.pt");
    EvaluationSettings s = settings(spec).withTraining(settings(spec).training().withLossThreshold(0).withEpochs(8)
        .withLearningRate(1e-2f));
    PairEvaluation one = PairEvaluator.evaluate(STAR_PATH, spec, s.withTraining(s.training().withEpochs(1)), 3L, Device.cpu());
    PairEvaluation a = PairEvaluator.evaluate(STAR_PATH, spec, s, 3L, Device.cpu());
    PairEvaluation b = PairEvaluator.evaluate(STAR_PATH, spec, s, 3L, Device.cpu());
    assertThat(a.training().finalLoss()).isLessThan(one.training().finalLoss());
    assertThat(b.training().finalLoss()).isEqualTo(a.training().finalLoss());
    assertThat(b.judgement().t2Test()).isEqualTo(a.judgement().t2Test());

    List<Graph> graphs = List.of(STAR_PATH.first(), STAR_PATH.second());
    float[][] seed1;
    float[][] seed1Again;
    float[][] seed2;
    float[][] saved;
    try (GraphModel m1 = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 1L);
        GraphModel m1b = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 1L);
        GraphModel m2 = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 2L);
        GraphModel s1 = GraphModel.create(TorchScriptFixtures.spec("gin.pt,init=saved"), Head.EMBEDDING, Device.cpu(), 1L);
        GraphModel s2 = GraphModel.create(TorchScriptFixtures.spec("gin.pt,init=saved"), Head.EMBEDDING, Device.cpu(), 2L)) {
      seed1 = m1.embed(graphs);
      seed1Again = m1b.embed(graphs);
      seed2 = m2.embed(graphs);
      saved = s1.embed(graphs);
      assertThat(s2.embed(graphs)).as("init=saved: every seed starts from the saved weights").isDeepEqualTo(saved);
    }
    assertThat(seed1Again).isDeepEqualTo(seed1);
    assertThat(seed2[0]).isNotEqualTo(seed1[0]);
    assertThat(saved[0]).isNotEqualTo(seed1[0]);
  }

  @Test
  void aModuleOfStandardLayersWithoutResetParametersStartsEachSeedFromWeightsDrawnFromTheSeed() {
    // plain-gin.pt (make_gin.py's PlainGin): Sequential(Linear, BatchNorm1d, ReLU, ...) per layer,
    // a Linear readout and GIN's eps as a bare Parameter, no reset_parameters
    List<Graph> graphs = List.of(STAR_PATH.first(), STAR_PATH.second());
    float[][][] bySeed = new float[3][][];
    for (int seed = 0; seed < 3; seed++) {
      try (GraphModel m = GraphModel.create(TorchScriptFixtures.spec("plain-gin.pt"), Head.EMBEDDING, Device.cpu(), seed)) {
        bySeed[seed] = m.embed(graphs);
        assertThat(m.initialisation())
            .startsWith("PyTorch's default init under the seed for mlps.0.0 (Linear), mlps.0.1 (BatchNorm1d), mlps.0.3 (Linear)")
            .contains("mlps.3.4 (BatchNorm1d), readout (Linear); left as saved: eps and every buffer");
      }
    }
    float[][] again;
    float[][] saved;
    try (GraphModel m = GraphModel.create(TorchScriptFixtures.spec("plain-gin.pt"), Head.EMBEDDING, Device.cpu(), 1L);
        GraphModel s = GraphModel.create(TorchScriptFixtures.spec("plain-gin.pt,init=saved"), Head.EMBEDDING, Device.cpu(), 1L)) {
      again = m.embed(graphs);
      saved = s.embed(graphs);
      assertThat(s.initialisation()).isEqualTo("the saved weights");
    }
    assertThat(again).as("the same seed twice").isDeepEqualTo(bySeed[1]);
    for (int a = 0; a < 3; a++) {
      assertThat(bySeed[a][0]).as("seed %d against the saved weights", a).isNotEqualTo(saved[0]);
      for (int b = a + 1; b < 3; b++) {
        assertThat(bySeed[a][0]).as("seed %d against seed %d", a, b).isNotEqualTo(bySeed[b][0]);
      }
    }
  }

  @Test
  void aSmallMemoryBudgetSplitsBatchesIntoMicroBatchesWithTheSameResult() {
    TorchScriptSpec spec = TorchScriptFixtures.spec("gin.pt");
    EvaluationSettings s = settings(spec).withTraining(settings(spec).training().withEpochs(3).withLossThreshold(0));
    PairEvaluation whole = PairEvaluator.evaluate(STAR_PATH, spec, s, 4L, Device.cpu(), MemoryBudget.parse("4g"), () -> false);
    PairEvaluation split = PairEvaluator.evaluate(STAR_PATH, spec, s, 4L, Device.cpu(), MemoryBudget.parse("1m"), () -> false);
    assertThat(whole.memory().trainingGraphsPerPass()).isEqualTo(32);
    assertThat(split.memory().trainingGraphsPerPass()).isBetween(2, 16);
    assertThat(split.training().finalLoss()).isCloseTo(whole.training().finalLoss(), within(1e-4));
  }

  @Test
  void denseFixtureTakesAdjacencyAndMask() {
    TorchScriptSpec spec = TorchScriptFixtures.spec("dense-gin.pt,input=dense");
    PairEvaluation d = PairEvaluator.evaluate(STAR_PATH, spec, settings(spec), 1L, Device.cpu());
    assertThat(d.distinguished()).as("T²=%s", d.judgement().t2Test()).isTrue();
    assertThat(d.reliable()).isTrue();
  }

  @Test
  void nodeFeaturesAreColumnsOfTheSparseInput() {
    // gin.pt was built for one input column: two features do not fit its first Linear, and the
    // error says which signature was fed
    assertThatThrownBy(() -> GraphModel.create(TorchScriptFixtures.spec("gin.pt,features=degree+count-triangle"),
        Head.EMBEDDING, Device.cpu(), 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("forward does not take the sparse signature forward(x: float[N,2]");
    TorchScriptSpec degree = TorchScriptFixtures.spec("gin.pt,features=degree");
    try (GraphModel ones = GraphModel.create(TorchScriptFixtures.spec("gin.pt"), Head.EMBEDDING, Device.cpu(), 0L);
        GraphModel deg = GraphModel.create(degree, Head.EMBEDDING, Device.cpu(), 0L)) {
      List<Graph> g = List.of(STAR_PATH.first());
      assertThat(deg.embed(g)[0]).isNotEqualTo(ones.embed(g)[0]);
    }
    assertThat(NodeFeature.parse("count-triangle").values(Graph.fromEdges(4, 0, 1, 1, 2, 2, 0, 2, 3)))
        .containsExactly(1f, 1f, 1f, 0f);
  }

  @Test
  void distancesToAMarkedVertexFeedEveryMarkedCopyAndLiftTheModuleBeyondOneWl() {
    // features=spd: each graph enters as its n copies with one vertex marked, x its distance to it
    TorchScriptSpec spec = TorchScriptFixtures.spec("gin.pt,features=spd");
    assertThat(spec.marking()).isTrue();
    PairEvaluation e = PairEvaluator.evaluate(DECALIN, spec, settings(spec), 1L, Device.cpu());
    assertThat(e.distinguished()).as("the 1-WL-equivalent pair with marking, T²=%s", e.judgement().t2Test()).isTrue();
    assertThat(e.reliable()).as("reliability T²=%s", e.judgement().t2Reliability()).isTrue();

    Graph twoComponents = Graph.fromEdges(5, 0, 1, 1, 2, 3, 4);
    int[][] d = io.expresso.graph.ShortestPaths.allPairs(twoComponents);
    for (int r = 0; r < 5; r++) {
      float[] column = NodeFeature.SPD.values(twoComponents, r);
      for (int v = 0; v < 5; v++) {
        assertThat(column[v]).as("distance %d to %d", v, r).isEqualTo((float) d[r][v]);
      }
    }
    assertThat(NodeFeature.SPD.values(twoComponents, 0)).containsExactly(0f, 1f, 2f, -1f, -1f);
    assertThatThrownBy(() -> NodeFeature.SPD.values(twoComponents)).hasMessageContaining("marked vertex");
    assertThat(TorchScriptFixtures.spec("gin.pt,features=degree").marking()).isFalse();
  }

  @Test
  void modulesThatDoNotFitAreRefusedNamingWhatIsWrong() {
    assertThatThrownBy(() -> create("wrong-signature.pt"))
        .hasMessageContaining("forward does not take the sparse signature");
    assertThatThrownBy(() -> create("node-output.pt"))
        .hasMessageContaining("forward must return float[B,d], one row per graph")
        .hasMessageContaining("returned shape (7, 16)");
    assertThatThrownBy(() -> create("nan-output.pt"))
        .hasMessageContaining("forward returned NaN");
    assertThatThrownBy(() -> create("integer-output.pt"))
        .hasMessageContaining("forward must return float32").hasMessageContaining("int64");
    assertThatThrownBy(() -> GraphModel.create(TorchScriptSpec.parse("torchscript:x.pt", l -> "not a zip".getBytes()),
        Head.EMBEDDING, Device.cpu(), 0L))
        .hasMessageContaining("not a TorchScript module");
    assertThatThrownBy(() -> create("wrong-signature.pt,init=reset"))
        .hasMessageContaining("exports no reset_parameters()");
    assertThatThrownBy(() -> create("gin.pt,input=dense"))
        .hasMessageContaining("forward does not take the dense signature");
    assertThatThrownBy(() -> TorchScriptFixtures.spec("gin.pt,input=sideways"))
        .hasMessageContaining("bad input 'sideways' (expected sparse or dense)");
    assertThatThrownBy(() -> TorchScriptFixtures.spec("gin.pt,features=colour"))
        .hasMessageContaining("unknown node feature 'colour'");
    assertThatThrownBy(() -> TorchScriptSpec.parse("torchscript:/no/such.pt", TorchScriptSpec.files()))
        .hasMessageContaining("torchscript module /no/such.pt: no such file");
  }

  @Test
  void specTextNamesTheModuleByItsHash() {
    TorchScriptSpec spec = TorchScriptFixtures.spec("gin.pt,features=degree+count-triangle,width=64");
    assertThat(spec.toText()).isEqualTo("torchscript:sha256:" + spec.sha256()
        + ",input=sparse,features=degree+count-triangle,init=auto,width=64,depth=4");
    TorchScriptSpec again = TorchScriptSpec.parse(spec.toText(), l -> spec.module());
    assertThat(again).isEqualTo(spec);
    assertThatThrownBy(() -> TorchScriptSpec.parse(spec.toText(), l -> TorchScriptFixtures.bytes("dense-gin.pt")))
        .hasMessageContaining("the bytes read have SHA-256");
  }

  private static GraphModel create(String fixture) {
    return GraphModel.create(TorchScriptFixtures.spec(fixture), Head.EMBEDDING, Device.cpu(), 0L);
  }
}
