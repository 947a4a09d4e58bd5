package io.expresso.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live page's card of a model: one seed (the best by BREC's rule), BREC's order, the paper beside it. */
class BrecCardTest {

  private static final String BREC = "brec:/data/runs/2026/brec_v3.npy";

  private static JsonNode configuration(LiveState state, String model) throws Exception {
    for (JsonNode c : new ObjectMapper().readTree(state.json(0)).path("experiments").get(0).path("configurations")) {
      if (c.path("model").asText().equals(model)) {
        return c;
      }
    }
    throw new AssertionError("no card for " + model);
  }

  private static void pairs(LiveState s, String category, String model, long seed, int n, int distinguished,
      int unreliable) {
    for (int i = 0; i < n; i++) {
      s.pair("leaderboard", BREC, category, model, seed, i < distinguished, i < n - unreliable);
    }
  }

  @Test
  void aCardShowsTheBestSeedNotThePoolOfSeedsInBrecsOrderBesideThePaper() throws Exception {
    LiveState s = new LiveState();
    // results arrive category by category, CFI first: the card keeps BREC's order regardless
    pairs(s, "CFI", "ppgn", 0, 10, 2, 0);
    pairs(s, "Distance Regular", "ppgn", 0, 4, 1, 0);
    pairs(s, "Basic", "ppgn", 0, 6, 6, 0);
    pairs(s, "Regular", "ppgn", 0, 8, 5, 0);
    pairs(s, "4-Vertex Condition", "ppgn", 0, 4, 4, 0);
    pairs(s, "Extension", "ppgn", 0, 5, 5, 0);
    // seed 1: more distinguished in Basic, but one reliability failure there (BREC counts 6 - 1)
    pairs(s, "Basic", "ppgn", 1, 6, 6, 1);
    pairs(s, "Regular", "ppgn", 1, 8, 7, 0);
    pairs(s, "CFI", "ppgn", 1, 10, 0, 0);

    JsonNode c = configuration(s, "ppgn");
    assertThat(c.path("suite").asText()).isEqualTo("brec_v3");
    assertThat(c.path("best_seed").asLong()).isZero(); // seed 0: 23 real correct, seed 1: 13 - 1
    assertThat(c.path("seeds").asInt()).isEqualTo(2);
    assertThat(c.path("unreliable_seeds").toString()).isEqualTo("[1]");
    assertThat(c.path("paper_model").asText()).isEqualTo("PPGN");
    List<String> order = new ArrayList<>();
    c.path("rows").forEach(r -> order.add(r.path("category").asText()));
    assertThat(order).containsExactly("Basic", "Regular", "4-Vertex Condition", "Distance Regular",
        "Regular (paper grouping)", "Extension", "CFI");
    JsonNode basic = c.path("rows").get(0);
    assertThat(basic.path("pairs").asLong()).as("seed 0 alone, not 12 pooled over seeds").isEqualTo(6);
    assertThat(basic.path("reliably_distinguished").asLong()).isEqualTo(6);
    assertThat(basic.path("paper").asInt()).isEqualTo(60);
    assertThat(basic.path("paper_pairs").asInt()).isEqualTo(60);
    JsonNode grouping = c.path("rows").get(4);
    assertThat(grouping.path("pairs").asLong()).isEqualTo(16);
    assertThat(grouping.path("reliably_distinguished").asLong()).isEqualTo(10);
    assertThat(grouping.path("paper_pairs").asInt()).isEqualTo(140);
    assertThat(c.path("rows").get(1).path("paper").isNull()).as("our Regular is not the paper's").isTrue();
    assertThat(c.path("total").path("pairs").asLong()).isEqualTo(37);
    assertThat(c.path("total").path("reliably_distinguished").asLong()).isEqualTo(23);
    assertThat(c.path("total").path("paper").asInt()).isEqualTo(233);
  }

  @Test
  void aSuiteThatIsNotBrecHasNoPaperColumnAndKeepsItsOwnOrder() throws Exception {
    LiveState s = new LiveState();
    s.pair("x", "builtin", "Regular", "3-wl", 0, true, true);
    s.pair("x", "builtin", "Basic", "3-wl", 0, false, true);
    JsonNode c = new ObjectMapper().readTree(s.json(0)).path("experiments").get(0).path("configurations").get(0);
    assertThat(c.path("brec").asBoolean()).isFalse();
    assertThat(c.path("rows").get(0).path("category").asText()).isEqualTo("Regular");
    assertThat(c.path("rows").get(0).path("paper").isNull()).isTrue();
    assertThat(c.path("total").path("paper").isNull()).isTrue();
  }
}
