package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.expresso.stats.MeanStd;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportStatisticsTest {

  @Test
  void welchMatchesScipy() {
    // scipy.stats.ttest_ind([1,2,3,4,5], [2,4,6,8,10], equal_var=False).pvalue = 0.10753119493062728
    double p = RobustnessReport.welch(List.of(1.0, 2.0, 3.0, 4.0, 5.0), List.of(2.0, 4.0, 6.0, 8.0, 10.0));
    assertThat(p).isCloseTo(0.10753119493062728, within(1e-9));
    assertThat(RobustnessReport.welch(List.of(1.0), List.of(2.0, 3.0))).isNaN();
  }

  @Test
  void seedSummariesIgnoreNaNAndGiveTheStandardError() {
    MeanStd s = MeanStd.ofMeasured(0.2, Double.NaN, 0.4, 0.6);
    assertThat(s.n()).isEqualTo(3);
    assertThat(s.mean()).isCloseTo(0.4, within(1e-12));
    assertThat(s.se()).isCloseTo(0.2 / Math.sqrt(3), within(1e-12)); // sd 0.2 over sqrt(3)
    assertThat(MeanStd.ofMeasured(Double.NaN).n()).isZero();
  }
}
