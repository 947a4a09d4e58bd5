package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ParameterBudgetTest {

  @ParameterizedTest
  @ValueSource(strings = {"gin:budget=100k", "gin:budget=100k,pe=20", "gin:budget=500k,layers=4",
      "ppgn:budget=100k,layers=3", "ngnn-de:budget=100k,pe=8",
      "gin:budget=100k,pe=20,residual=true,learn-eps=true"})
  void sizedModelsAreWithinFivePercentOfTheirBudget(String text) {
    ModelSpec spec = ModelSpec.parse(text).withEmbedding(10);
    ParameterBudget.Sized sized = ParameterBudget.size(spec, Head.EMBEDDING);
    assertThat(sized.relativeError()).isLessThan(0.05);
    // the model built from the budgeted spec is that model: same width, same exact count
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 3)) {
      assertThat(((ModelSpec) m.spec()).hidden()).isEqualTo(sized.spec().hidden());
      assertThat(m.parameterCount()).isEqualTo(sized.parameters());
      assertThat(((ModelSpec) m.spec()).budget()).isEqualTo(spec.budget());
    }
  }

  @Test
  void theChosenWidthIsTheClosestOne() {
    ModelSpec spec = ModelSpec.parse("gin:budget=100k,pe=20").withEmbedding(10);
    ParameterBudget.Sized sized = ParameterBudget.size(spec, Head.EMBEDDING);
    long distance = Math.abs(sized.parameters() - 100_000);
    for (int h : new int[] {sized.spec().hidden() - 1, sized.spec().hidden() + 1}) {
      try (GraphModel m = GraphModel.create(spec.withHidden(h).withEmbedding(10)
          .withBudgetRemoved(), Head.EMBEDDING, Device.cpu(), 0)) {
        assertThat(Math.abs(m.parameterCount() - 100_000)).isGreaterThanOrEqualTo(distance);
      }
    }
  }

  /**
   * The reference GIN (residual, learned ε): plain GIN plus its input embedding, the embedding's
   * read-out and one ε per layer — another function, still permutation invariant.
   */
  @Test
  void theReferenceGinAddsItsEmbeddingItsReadoutAndOneEpsilonPerLayer() {
    io.expresso.graph.Graph g = io.expresso.suite.Constructions.decalin();
    int[] perm = new int[g.n()];
    for (int v = 0; v < g.n(); v++) {
      perm[v] = (v + 3) % g.n();
    }
    ModelSpec plainSpec = ModelSpec.parse("gin:pe=3");
    ModelSpec refSpec = ModelSpec.parse("gin:pe=3,residual=true,learn-eps=true");
    try (GraphModel plain = GraphModel.create(plainSpec, Head.EMBEDDING, Device.cpu(), 2);
        GraphModel ref = GraphModel.create(refSpec, Head.EMBEDDING, Device.cpu(), 2)) {
      int h = refSpec.hidden();
      int d = refSpec.embedding();
      // the first layer's MLP reads h columns instead of 1 + pe
      long firstLayerDifference = (long) (h - (1 + refSpec.pe())) * h;
      long embedding = (long) (1 + refSpec.pe()) * h + h;
      long embeddingReadout = (long) h * d + d;
      assertThat(ref.parameterCount()).isEqualTo(plain.parameterCount() + firstLayerDifference + embedding
          + embeddingReadout + refSpec.layers());
      assertThat(ref.parameterNames()).contains("eps0", "eps3");
      assertThat(ref.parameterValues("eps0")).containsExactly(0f);
      float[][] e = ref.embed(java.util.List.of(g, g.relabel(perm)));
      for (int i = 0; i < e[0].length; i++) {
        assertThat(e[1][i]).isCloseTo(e[0][i], org.assertj.core.api.Assertions.within(1e-3f));
      }
      assertThat(e[0]).isNotEqualTo(plain.embed(java.util.List.of(g))[0]);
    }
  }

  @Test
  void aBudgetBelowTheSmallestModelIsRefusedWithItsSize() {
    assertThatThrownBy(() -> ParameterBudget.size(ModelSpec.parse("gin:budget=10,layers=4"), Head.EMBEDDING))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below the smallest gin of 4 layers");
  }

  @Test
  void budgetsParseWithSuffixesAndRoundTrip() {
    assertThat(ModelSpec.parse("gin:budget=0.5m").budget()).isEqualTo(500_000);
    ModelSpec s = ModelSpec.parse("gin:pe=20,budget=100k");
    assertThat(ModelSpec.parse(s.toText())).isEqualTo(s);
    ModelSpec r = ModelSpec.parse("gin:residual=true,pe=4");
    assertThat(r.residual()).isTrue();
    assertThat(ModelSpec.parse(r.toText())).isEqualTo(r);
    assertThatThrownBy(() -> ModelSpec.parse("ppgn:residual=true")).hasMessageContaining("residual is a gin option");
    assertThatThrownBy(() -> ModelSpec.parse("gin:residual=maybe")).hasMessageContaining("residual must be true or false");
    ModelSpec e = ModelSpec.parse("gin:learn-eps=true");
    assertThat(e.learnEps()).isTrue();
    assertThat(ModelSpec.parse(e.toText())).isEqualTo(e);
    assertThatThrownBy(() -> ModelSpec.parse("ppgn:learn-eps=true")).hasMessageContaining("learn-eps is a gin option");
    assertThatThrownBy(() -> ModelSpec.parse("gin:learn-eps=2")).hasMessageContaining("learn-eps must be true or false");
    // specs without them keep their old text (results files, checkpoints)
    assertThat(ModelSpec.parse("gin").toText()).isEqualTo("gin:layers=4,hidden=32,d=16,radius=1,bn-momentum=0.9");
  }
}
