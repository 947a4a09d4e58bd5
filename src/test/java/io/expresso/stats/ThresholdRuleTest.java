package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The three ways a threshold is set, by the names settings, tasks and the CLI use. */
class ThresholdRuleTest {

  @Test
  void aGivenValueIsParsedJudgedAtAndNamedAsWritten() {
    ThresholdRule r = ThresholdRule.of(" 5.0 ", 0.05);
    assertThat(r).isEqualTo(new ThresholdRule.Given(5.0, 0.05));
    assertThat(r.id()).isEqualTo("5");
    assertThat(ThresholdRule.of(r.id(), 0.01)).isEqualTo(new ThresholdRule.Given(5.0, 0.01)); // id round-trips
    assertThat(ThresholdRule.of("72.5", 0.05).id()).isEqualTo("72.5");
    assertThat(r.groups()).isZero();
    r.check(2, 4096); // no distribution: any q and d
    Threshold t = r.threshold(32, 16, List.of(), Convention.BREC);
    assertThat(t.kind()).isEqualTo(Threshold.Kind.FIXED);
    assertThat(t.value()).isEqualTo(5.0);
    assertThat(ThresholdRule.of("RPC", 0.05)).isInstanceOf(ThresholdRule.Rpc.class);
    assertThat(ThresholdRule.of("rapc", 0.05)).isInstanceOf(ThresholdRule.Rapc.class);
  }

  @Test
  void theReliabilityCheckUsesTheSameGivenValue() {
    // DropGNN's script: distinguished when T²_test > 5 and not close to T²_reliability; reliable when T²_reliability < 5
    double at = ThresholdRule.of("5", 0.05).threshold(32, 16, List.of(), Convention.BREC).value();
    PairJudgement j = PairedComparison.decide(6.0, 4.9, at);
    assertThat(j.distinguished()).isTrue();
    assertThat(j.reliable()).isTrue();
    PairJudgement unreliable = PairedComparison.decide(6.0, 5.5, at);
    assertThat(unreliable.distinguished()).isTrue();
    assertThat(unreliable.reliable()).isFalse();
    assertThat(unreliable.reliablyDistinguished()).isFalse();
    assertThat(PairedComparison.decide(4.99, 0.1, at).distinguished()).isFalse(); // 72.34 would say the same; 5 decides
    assertThat(PairedComparison.decide(50, 0.1, at).distinguished()).isTrue(); // where RPC's 72.34 would not
  }

  @Test
  void badValuesAreRefusedInOneLineNamingThem() {
    for (String bad : new String[] {"bonferroni", "", "0", "-5", "NaN", "Infinity", "1e400"}) {
      assertThatThrownBy(() -> ThresholdRule.of(bad, 0.05)).as(bad).isInstanceOf(IllegalArgumentException.class)
          .hasMessageNotContaining("\n").message().satisfiesAnyOf(
              m -> assertThat(m).contains("unknown threshold '" + bad + "'"),
              m -> assertThat(m).contains("must be a positive number"));
    }
    assertThatThrownBy(() -> ThresholdRule.of("5", 1.5)).hasMessageContaining("alpha must lie in (0, 1)");
  }
}
