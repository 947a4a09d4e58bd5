package io.expresso.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.stats.MeanStd;
import org.junit.jupiter.api.Test;

class RobustnessWriterTest {

  @Test
  void meanAndStandardErrorAsTheTablesShowThem() {
    assertThat(RobustnessWriter.pm(MeanStd.ofMeasured(0.5))).isEqualTo("0.500 ± 0.000");
    assertThat(RobustnessWriter.pm(MeanStd.ofMeasured(Double.NaN))).isEqualTo("-");
    assertThat(RobustnessWriter.num(0.001)).isEqualTo("1.00e-03");
  }
}
