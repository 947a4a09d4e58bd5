package io.expresso.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LabelGuardTest {

  @Test
  void suitesAreShortNamesNeverPaths() {
    assertThat(LabelGuard.suiteName("brec:/data/x/brec_v3.npy")).isEqualTo("brec_v3");
    assertThat(LabelGuard.suiteName("brec:/data/x/brec_v3.npy#indices=0,60,110-112")).isEqualTo("brec_v3");
    assertThat(LabelGuard.suiteName("brec:relative/dir/basic.g6")).isEqualTo("basic");
    assertThat(LabelGuard.suiteName("pairs:C:\\Users\\me\\csl.g6")).isEqualTo("csl");
    assertThat(LabelGuard.suiteName("builtin")).isEqualTo("builtin");
    assertThat(LabelGuard.suiteName("brec:")).isEqualTo("brec");
    assertThat(LabelGuard.suiteName("/etc/passwd")).isEqualTo("passwd");
  }

  @Test
  void modelsAreTheArchitectureOrMethodWithoutParameters() {
    assertThat(LabelGuard.modelName("ppgn:layers=5,hidden=32,d=16")).isEqualTo("ppgn");
    assertThat(LabelGuard.modelName("GIN")).isEqualTo("gin");
    assertThat(LabelGuard.modelName("3-wl")).isEqualTo("3-wl");
    assertThat(LabelGuard.modelName("i2gnn:" + "x".repeat(280_000))).isEqualTo("i2gnn");
    assertThat(LabelGuard.modelName("/models/secret/net.pt")).isEqualTo("net.pt");
  }

  @Test
  void sanitisedValuesArePrintableShortAndNeverEmpty() {
    assertThat(LabelGuard.sanitise("Regular")).isEqualTo("Regular");
    assertThat(LabelGuard.sanitise("a\nb\r\n\tc")).isEqualTo("a b c");
    assertThat(LabelGuard.sanitise("\u001b[31mred\u001b[0m")).isEqualTo("[31mred [0m");
    assertThat(LabelGuard.sanitise("right\u202eto-left")).isEqualTo("right to-left");
    assertThat(LabelGuard.sanitise("  \n ")).isEqualTo(LabelGuard.NONE);
    assertThat(LabelGuard.sanitise(null)).isEqualTo(LabelGuard.NONE);
    assertThat(LabelGuard.sanitise("x".repeat(1000))).hasSize(LabelGuard.MAX_LENGTH);
    // a supplementary character is never cut in half
    String cut = LabelGuard.sanitise("x".repeat(63) + "\uD83D\uDE00");
    assertThat(cut).isEqualTo("x".repeat(63));
    assertThat(LabelGuard.sanitise("4-vertex condition \"quoted\" <b>")).isEqualTo("4-vertex condition \"quoted\" <b>");
  }

  @Test
  void valuesPastTheCapFoldIntoOtherAndAdmittedValuesStay() {
    LabelGuard g = new LabelGuard(3, 1000);
    assertThat(List.of(g.value("suite", "a"), g.value("suite", "b"), g.value("suite", "c"), g.value("suite", "d")))
        .containsExactly("a", "b", "c", LabelGuard.OTHER);
    assertThat(g.value("suite", "a")).as("admitted stays admitted").isEqualTo("a");
    assertThat(g.value("suite", "d")).as("folded stays folded").isEqualTo(LabelGuard.OTHER);
    assertThat(g.value("category", "d")).as("caps are per label").isEqualTo("d");
    assertThat(g.value("suite", LabelGuard.OTHER)).isEqualTo(LabelGuard.OTHER);
  }

  @Test
  void combinationsPastTheSeriesCapFoldEveryLabel() {
    LabelGuard g = new LabelGuard(100, 10);
    Set<Tags> series = new HashSet<>();
    for (int e = 0; e < 10; e++) {
      for (int s = 0; s < 10; s++) {
        series.add(g.series("m", "experiment", "e" + e, "suite", "s" + s));
      }
    }
    assertThat(series).as("10 admitted combinations plus the all-other one").hasSize(11)
        .contains(Tags.of("experiment", LabelGuard.OTHER, "suite", LabelGuard.OTHER));
    assertThat(g.series("m", "experiment", "e0", "suite", "s0")).isEqualTo(Tags.of("experiment", "e0", "suite", "s0"));
    assertThat(g.series("other-meter", "experiment", "e9", "suite", "s9").stream().map(Tag::getValue))
        .as("series caps are per meter").containsExactly("e9", "s9");
  }

  @Test
  void capsComeFromTheEnvironmentAndMustBePositive() {
    String before = System.getProperty(LabelGuard.MAX_VALUES_PROPERTY);
    try {
      System.setProperty(LabelGuard.MAX_VALUES_PROPERTY, "7");
      assertThat(LabelGuard.fromEnvironment().maxValuesPerLabel()).isEqualTo(7);
      System.setProperty(LabelGuard.MAX_VALUES_PROPERTY, "many");
      assertThatThrownBy(LabelGuard::fromEnvironment).hasMessageContaining(LabelGuard.MAX_VALUES_PROPERTY)
          .hasMessageContaining("'many'");
    } finally {
      if (before == null) {
        System.clearProperty(LabelGuard.MAX_VALUES_PROPERTY);
      } else {
        System.setProperty(LabelGuard.MAX_VALUES_PROPERTY, before);
      }
    }
    assertThat(LabelGuard.fromEnvironment().maxValuesPerLabel()).isEqualTo(LabelGuard.DEFAULT_MAX_VALUES_PER_LABEL);
    assertThatThrownBy(() -> new LabelGuard(0, 1)).hasMessageContaining("at least 1");
  }
}
