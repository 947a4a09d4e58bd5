package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ThresholdTest {

  @Test
  void brecThresholdIs72point34() {
    // BREC's THRESHOLD = 72.34 (q = 32, d = 16, α = 0.05); scipy: 31·f.ppf(0.95, 16, 16) = 72.33799245149663.
    assertThat(Threshold.rpc().value()).isCloseTo(72.33799245149663, within(1e-8));
    assertThat(Threshold.rpc(32, 16, 0.05).value()).isCloseTo(72.34, within(0.005));
    assertThat(Threshold.rpc().kind()).isEqualTo(Threshold.Kind.RPC);
  }

  @Test
  void otherRpcThresholdMatchesScipy() {
    // scipy 1.17.1: 63·16/48·f.ppf(0.99, 16, 48) = 50.36882995759514
    assertThat(Threshold.rpcValue(64, 16, 0.01)).isCloseTo(50.36882995759514, within(1e-7));
  }

  @Test
  void fQuantilesMatchScipyAndTables() {
    // Values from scipy.stats.f.ppf (scipy 1.17.1); they agree with printed F tables
    // (F(1,10)=4.96, F(10,20)=2.35 at 5%; F(2,20)=5.85 at 1%).
    assertThat(quantile(0.95, 16, 16)).isCloseTo(2.333483627467633, within(1e-9));
    assertThat(quantile(0.95, 1, 10)).isCloseTo(4.964602743730711, within(1e-9));
    assertThat(quantile(0.99, 2, 20)).isCloseTo(5.848931924611135, within(1e-9));
    assertThat(quantile(0.95, 10, 20)).isCloseTo(2.3478775669983114, within(1e-9));
    assertThat(quantile(0.975, 4, 60)).isCloseTo(3.007659368404665, within(1e-9));
  }

  @Test
  void fQuantileWithTwoNumeratorDegreesHasClosedForm() {
    // F_{2,ν}(1−α) = (ν/2)(α^{−2/ν} − 1): an oracle independent of any library.
    for (int nu : new int[] {3, 10, 20, 47}) {
      for (double alpha : new double[] {0.1, 0.05, 0.01}) {
        double closed = nu / 2.0 * (Math.pow(alpha, -2.0 / nu) - 1);
        double rpc = Threshold.rpcValue(nu + 2, 2, alpha); // (q−1)d/(q−d) = 2(ν+1)/ν
        assertThat(rpc).isCloseTo(2.0 * (nu + 1) / nu * closed, within(1e-8 * closed));
      }
    }
  }

  @Test
  void rejectsShapesWithoutAnFDistribution() {
    assertThatThrownBy(() -> Threshold.rpc(16, 16, 0.05)).hasMessageContaining("1 <= d < q").hasMessageContaining("q=16");
    assertThatThrownBy(() -> Threshold.rpc(32, 0, 0.05)).hasMessageContaining("d=0");
    assertThatThrownBy(() -> Threshold.rpc(32, 16, 1.0)).hasMessageContaining("alpha");
    assertThatThrownBy(() -> Threshold.fixed(Double.NaN)).hasMessageContaining("NaN");
  }

  @Test
  void rapcThresholdIsTheLargestGroupStatistic() {
    // d = 1: T²_brec = mean² / variance. Group A: differences 1,2,3 → 4 / 1 = 4.
    // Group B: differences 2,2,5 → mean 3, variance 3 → 3. Group C: 1,1,1.5 → (7/6)²/(1/12) = 16.333….
    PairedEmbeddings a = group(new double[] {1, 2, 3});
    PairedEmbeddings b = group(new double[] {2, 2, 5});
    PairedEmbeddings c = group(new double[] {1, 1, 1.5});
    Threshold t = Threshold.rapc(List.of(a, b, c), Convention.BREC);
    assertThat(t.kind()).isEqualTo(Threshold.Kind.RAPC);
    assertThat(t.value()).isCloseTo(49.0 / 36 * 12, within(1e-12));
    assertThat(Threshold.rapc(List.of(a, b), Convention.HOTELLING).value()).isCloseTo(12.0, within(1e-12));
    assertThat(Threshold.rapcFalsePositiveBound(19)).isEqualTo(0.05);
    assertThat(Threshold.rapcGroupsFor(0.05)).isEqualTo(19);
    assertThat(Threshold.rapcGroupsFor(0.1)).isEqualTo(9);
    assertThat(Threshold.rapcGroupsFor(0.03)).isEqualTo(33); // 1/34 ≤ 0.03 < 1/33
    assertThat(Threshold.rapcGroupsFor(0.9)).isEqualTo(1);
  }

  @Test
  void rapcNamesTheBadGroup() {
    PairedEmbeddings ok = group(new double[] {1, 2, 3});
    assertThatThrownBy(() -> Threshold.rapc(List.of(), Convention.BREC)).hasMessageContaining("at least one");
    assertThatThrownBy(() -> Threshold.rapc(java.util.Arrays.asList(ok, null), Convention.BREC))
        .hasMessageContaining("group 1");
  }

  private static PairedEmbeddings group(double[] differences) {
    double[][] x = new double[differences.length][1];
    double[][] y = new double[differences.length][1];
    for (int i = 0; i < differences.length; i++) {
      x[i][0] = differences[i] + 10;
      y[i][0] = 10;
    }
    return new PairedEmbeddings(x, y);
  }

  /** F_{d1,d2}(p) recovered from our RPC threshold with q = d1 + d2, d = d1, α = 1 − p. */
  private static double quantile(double p, int d1, int d2) {
    int q = d1 + d2;
    return Threshold.rpcValue(q, d1, 1 - p) / ((q - 1.0) * d1 / d2);
  }
}
