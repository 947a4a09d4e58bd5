package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class MeanStdTest {

  @Test
  void sampleStandardDeviationByHand() {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum 32, sample variance 32/7.
    MeanStd m = MeanStd.of(2, 4, 4, 4, 5, 5, 7, 9);
    assertThat(m.n()).isEqualTo(8);
    assertThat(m.mean()).isEqualTo(5.0);
    assertThat(m.std()).isCloseTo(Math.sqrt(32.0 / 7), within(1e-12));
    assertThat(m.format(2)).isEqualTo("5.00 ± 2.14");
    assertThat(MeanStd.of(3).std()).isZero();
  }

  @Test
  void rejectsEmptyAndNonFinite() {
    assertThatThrownBy(MeanStd::of).hasMessageContaining("at least one value");
    assertThatThrownBy(() -> MeanStd.of(1, Double.NaN)).hasMessageContaining("value 1 is NaN");
  }

  @Test
  void measuredValuesOnlyWithTheStandardErrorInJson() throws Exception {
    MeanStd m = MeanStd.ofMeasured(1, Double.NaN, 3);
    assertThat(m.n()).isEqualTo(2);
    assertThat(m.se()).isCloseTo(Math.sqrt(2) / Math.sqrt(2), within(1e-12)); // std √2 over √2
    assertThat(MeanStd.ofMeasured(Double.NaN).mean()).isNaN();
    assertThat(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(m))
        .contains("\"mean\":2.0", "\"se\":1.0");
  }
}
