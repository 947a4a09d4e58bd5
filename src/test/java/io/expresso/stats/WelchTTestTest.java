package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WelchTTestTest {

  @Test
  void matchesScipyTtestIndWithUnequalVariances() {
    // scipy 1.17.1: stats.ttest_ind(a, b, equal_var=False) → statistic, pvalue, df
    WelchTTest.Result r = WelchTTest.test(new double[] {1, 2, 3, 4, 5}, new double[] {2, 4, 6, 8, 10, 12.5});
    assertThat(r.t()).isCloseTo(-2.3547897235278423, within(1e-12));
    assertThat(r.pValue()).isCloseTo(0.0514916367551894, within(1e-9));
    assertThat(r.degreesOfFreedom()).isCloseTo(6.852618036417862, within(1e-10));
    assertThat(r.meanA()).isEqualTo(3.0);
    assertThat(r.significantAt(0.05)).isFalse();

    WelchTTest.Result s = WelchTTest.test(new double[] {0.31, 0.42, 0.29, 0.55, 0.47, 0.38, 0.41},
        new double[] {0.52, 0.61, 0.49, 0.58, 0.66, 0.71});
    assertThat(s.t()).isCloseTo(-3.973759898554575, within(1e-10));
    assertThat(s.pValue()).isCloseTo(0.0022172909535394833, within(1e-9));
    assertThat(s.degreesOfFreedom()).isCloseTo(10.90912019651845, within(1e-9));
    assertThat(s.significantAt(0.01)).isTrue();
  }

  @Test
  void rejectsUnusableSamples() {
    assertThatThrownBy(() -> WelchTTest.test(new double[] {1}, new double[] {1, 2}))
        .hasMessageContaining("first sample").hasMessageContaining("at least 2");
    assertThatThrownBy(() -> WelchTTest.test(new double[] {1, 2}, new double[] {1, Double.POSITIVE_INFINITY}))
        .hasMessageContaining("second sample: value 1 is Infinity");
    assertThatThrownBy(() -> WelchTTest.test(new double[] {3, 3}, new double[] {4, 4}))
        .hasMessageContaining("both samples are constant");
  }
}
