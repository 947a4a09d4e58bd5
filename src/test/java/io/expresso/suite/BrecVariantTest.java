package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.GraphFormatException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The variants' ranges are BREC's part_dict in customize/dataset_v3*.py. */
class BrecVariantTest {

  @Test
  void rangesAreBrecsPartDicts() {
    assertThat(BrecVariant.FULL.ranges()).containsExactly(
        new BrecVariant.Range("Basic", 0, 60), new BrecVariant.Range("Regular", 60, 160),
        new BrecVariant.Range("Extension", 160, 260), new BrecVariant.Range("CFI", 260, 360),
        new BrecVariant.Range("4-Vertex Condition", 360, 380), new BrecVariant.Range("Distance Regular", 380, 400));
    assertThat(BrecVariant.THREE_WL.ranges()).containsExactly(
        new BrecVariant.Range("Basic", 0, 60), new BrecVariant.Range("Regular", 60, 110),
        new BrecVariant.Range("Extension", 110, 210), new BrecVariant.Range("CFI", 210, 270));
    assertThat(BrecVariant.NO4V_60CFI.ranges()).containsExactly(
        new BrecVariant.Range("Basic", 0, 60), new BrecVariant.Range("Regular", 60, 160),
        new BrecVariant.Range("Extension", 160, 260), new BrecVariant.Range("CFI", 260, 320),
        new BrecVariant.Range("Distance Regular", 320, 340));
    assertThat(BrecVariant.ALL).extracting(BrecVariant::pairs).containsExactly(400, 270, 340);
  }

  @Test
  void namesAndPairCountsFindTheVariant() {
    assertThat(BrecVariant.byName("3WL")).isSameAs(BrecVariant.THREE_WL);
    assertThat(BrecVariant.byName("no4v_60cfi")).isSameAs(BrecVariant.NO4V_60CFI);
    assertThatThrownBy(() -> BrecVariant.byName("s4")).hasMessage("unknown BREC variant 's4'; valid: full, 3wl, no4v-60cfi");
    assertThat(BrecVariant.byPairCount(340)).contains(BrecVariant.NO4V_60CFI);
    assertThat(BrecVariant.byPairCount(4)).isEmpty();
    assertThat(BrecVariant.THREE_WL.categoryOf(209)).isEqualTo("Extension");
    assertThatThrownBy(() -> BrecVariant.THREE_WL.categoryOf(270))
        .hasMessage("pair index 270 is outside the range 0..269 of BREC variant 3wl");
  }

  @Test
  void brecSpecOptionsCombineWithTheIndicesList() {
    Path excerpt = BrecLoaderTest.EXCERPT.resolve("brec_excerpt.g6");
    // The excerpt's pairs 0, 60, 110, 160 of the full file are 0, 60, -, 110 of the 3-WL file.
    Suite s = SuiteSpecs.load("brec:" + excerpt + "#variant=3wl,indices=0,60,61,110");
    assertThat(s.pairs().map(GraphPair::category)).containsExactly("Basic", "Regular", "Regular", "Extension");
    Suite same = SuiteSpecs.load("brec:" + excerpt + "#indices=0,60,61,110,variant=3wl,q=32");
    assertThat(same.pairs().toList()).isEqualTo(s.pairs().toList());
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + excerpt + "#variant=3wl,indices=0,60,110,270"))
        .isInstanceOf(GraphFormatException.class)
        .hasMessage("brec_excerpt.g6: pair index 270 is outside the range 0..269 of BREC variant 3wl");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + excerpt + "#variant=5wl"))
        .hasMessageContaining("unknown BREC variant '5wl'");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + excerpt + "#indices=0-3,seed=1"))
        .hasMessageContaining("unknown option 'seed' (this form takes variant, q, indices)");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + excerpt + "#q=x"))
        .hasMessageContaining("q=x is not an integer");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + excerpt + "#q=5"))
        .hasMessage("brec_excerpt.g6: 512 entries is not a positive multiple of 20 (each pair has a major and a"
            + " reliability block of 2q = 10 graphs)");
    assertThatThrownBy(() -> SuiteSpecs.load("brec-raw:#seed=1")).hasMessageContaining("names no directory");
    assertThatThrownBy(() -> SuiteSpecs.load("brec-raw:" + BrecLoaderTest.EXCERPT.resolve("nope")))
        .isInstanceOf(GraphFormatException.class).hasMessageContaining("nope: no such directory");
    assertThat(SuiteSpecs.shortName("brec-raw:../shared/data/brec-raw#seed=3")).isEqualTo("brec-raw");
    assertThat(SuiteSpecs.shortName("brec:/d/brec_v3_3wl.npy#variant=3wl")).isEqualTo("brec_v3_3wl");
  }
}
