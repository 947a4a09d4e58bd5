package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CountErrorsTest {

  @Test
  void relativeErrorDividesByCountPlusOneAsThePaper() {
    CountErrors e = CountErrors.of(new double[] {1.0, 3.0, 10.0}, new long[] {0, 4, 9});
    assertThat(e.l1()).isCloseTo((1 + 1 + 1) / 3.0, within(1e-12));
    assertThat(e.lc()).isCloseTo((1 / 1.0 + 1 / 5.0 + 1 / 10.0) / 3, within(1e-12));
    assertThat(e.graphs()).isEqualTo(3);
  }
}
