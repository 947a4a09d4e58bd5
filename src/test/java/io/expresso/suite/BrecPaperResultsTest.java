package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.model.Architecture;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrecPaperResultsTest {

  @Test
  void modelSpecsMapToThePaperRowsByArchitecture() {
    assertThat(BrecPaperResults.forMethod("ppgn:layers=5,hidden=32")).get()
        .extracting(BrecPaperResults.Row::model, BrecPaperResults.Row::total).containsExactly("PPGN", 233);
    assertThat(BrecPaperResults.forMethod("ngnn-de")).get().extracting(BrecPaperResults.Row::cfi).isEqualTo(21);
    assertThat(BrecPaperResults.forMethod("3-wl")).get()
        .extracting(r -> List.of(r.basic(), r.regular(), r.extension(), r.cfi(), r.total()))
        .isEqualTo(List.of(60, 50, 100, 60, 270));
    assertThat(BrecPaperResults.forMethod("I2-GNN")).get().extracting(BrecPaperResults.Row::regular).isEqualTo(100);
    assertThat(BrecPaperResults.forMethod("kp-gnn")).get().extracting(BrecPaperResults.Row::regular).isEqualTo(106);
    // GIN is not in Table 2: every BREC pair is 1-WL-indistinguishable, so its row is that bound
    assertThat(BrecPaperResults.forMethod("gin:layers=4")).get().satisfies(r -> {
      assertThat(r.bound()).isTrue();
      assertThat(r.total()).isZero();
      assertThat(r.label()).isEqualTo("1-WL bound");
    });
    assertThat(BrecPaperResults.forMethod("4-wl")).isEmpty();
    // the table's also_called names (non-ASCII ones included: the resource is read as UTF-8)
    assertThat(List.of("de-ngnn", "i2gnn", "i²-gnn", "kpgnn", "sswlp", "δ-k-lgnn", "KC-Set-GNN:x=1").stream()
        .map(m -> BrecPaperResults.forMethod(m).map(BrecPaperResults.Row::model).orElse("-")).toList())
        .containsExactly("DE+NGNN", "I2-GNN", "I2-GNN", "KP-GNN", "SSWL_P", "delta-k-LGNN", "KC-SetGNN");
  }

  @Test
  void theLeaderboardsDefaultModelsAreEveryBuiltInModelWithARowInTableTwoInItsOrder() {
    List<String> withRow = Arrays.stream(Architecture.values()).map(Architecture::cliName)
        .filter(a -> BrecPaperResults.forMethod(a).filter(r -> !r.bound()).isPresent()).toList();
    List<String> defaults = BrecPaperResults.leaderboardModels();
    assertThat(defaults).as(BrecPaperResults.LEADERBOARD_MODELS).doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(withRow).hasSizeGreaterThanOrEqualTo(14).doesNotContain("gin");
    List<String> paperOrder = BrecPaperResults.rows().stream().map(BrecPaperResults.Row::model).toList();
    assertThat(defaults.stream().map(m -> paperOrder.indexOf(BrecPaperResults.forMethod(m).orElseThrow().model())).toList())
        .isSorted();
  }

  @Test
  void tableTwoHasTwentyThreeModelsOnFourHundredPairs() {
    assertThat(BrecPaperResults.rows()).hasSize(23);
    assertThat(BrecPaperResults.rows().get(22)).isEqualTo(new BrecPaperResults.Row("Graphormer", 16, 12, 41, 10, false));
    assertThat(BrecPaperResults.SIZES.stream().mapToInt(Integer::intValue).sum()).isEqualTo(400);
    assertThat(BrecPaperResults.rows()).allSatisfy(r -> {
      assertThat(r.basic()).isBetween(0, 60);
      assertThat(r.regular()).isBetween(0, 140);
      assertThat(r.extension()).isBetween(0, 100);
      assertThat(r.cfi()).isBetween(0, 100);
    });
  }

  @Test
  void brecIsRecognisedByItsCategoriesAndTheirPaperGrouping() {
    assertThat(BrecPaperResults.isBrec("brec:x.npy#indices=0,60,160", List.of("Basic", "Regular", "Extension")))
        .isTrue();
    assertThat(BrecPaperResults.isBrec("brec-raw:raw", List.of("CFI", "Distance Regular"))).isTrue();
    assertThat(BrecPaperResults.isBrec("brec:x.npy", List.of("Basic", "CSL"))).isFalse();
    assertThat(BrecPaperResults.isBrec("builtin", List.of("CFI"))).as("the built-in suite's CFI").isFalse();
    assertThat(BrecPaperResults.isBrec("brec:x.npy", List.of())).isFalse();
    assertThat(BrecPaperResults.paperCategory("Distance Regular")).contains("Regular");
    assertThat(BrecPaperResults.paperCategory("CFI")).contains("CFI");
  }
}
