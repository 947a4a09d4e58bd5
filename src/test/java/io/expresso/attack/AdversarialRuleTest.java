package io.expresso.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AdversarialRuleTest {

  private final AdversarialRule rule = AdversarialRule.paper();

  @Test
  void roundingIsHalfUp() {
    assertThat(AdversarialRule.correct(2.49, 2)).isTrue();
    assertThat(AdversarialRule.correct(2.5, 2)).isFalse(); // ⌊3.0⌋ = 3
    assertThat(AdversarialRule.correct(1.5, 2)).isTrue(); // ⌊2.0⌋ = 2
    assertThat(AdversarialRule.correct(1.49, 2)).isFalse();
    assertThat(AdversarialRule.correct(-0.5, 0)).isTrue();
    assertThat(AdversarialRule.correct(Double.NaN, 0)).isFalse();
  }

  @Test
  void cleanPredictionMustBeCorrect() {
    assertThat(rule.isAdversarial(2.5, 2, 10.0, 3)).isFalse(); // (i) fails
    assertThat(rule.isAdversarial(2.25, 2, 10.0, 3)).isTrue();
  }

  @Test
  void perturbedPredictionMustBeWrong() {
    // (ii): f(G̃) = C(G̃) - 0.5 rounds to the right count; + 0.5 rounds away
    assertThat(rule.isAdversarial(2.125, 2, 4.5, 5)).isFalse();
    assertThat(rule.isAdversarial(2.125, 2, 5.5, 5)).isTrue();
  }

  @Test
  void marginIsStrictAndRelative() {
    // clean loss 0.25, perturbed loss 0.5: relative increase exactly δ = 1 -> not adversarial
    assertThat(rule.isAdversarial(2.25, 2, 7.5, 7)).isFalse();
    // perturbed loss 0.5 + 2^-10 -> increase just above 1
    assertThat(rule.isAdversarial(2.25, 2, 7.5 + 0x1.0p-10, 7)).isTrue();
    // a smaller margin accepts the boundary case, a larger one rejects a big jump
    assertThat(new AdversarialRule(0.5).isAdversarial(2.25, 2, 7.5, 7)).isTrue();
    assertThat(new AdversarialRule(4).isAdversarial(2.25, 2, 8.25, 7)).isFalse(); // (1.25-.25)/.25 = 4
  }

  @Test
  void zeroCleanLossMakesAnyWrongPredictionAdversarial() {
    assertThat(rule.isAdversarial(2.0, 2, 7.5, 7)).isTrue();
    assertThat(rule.isAdversarial(2.0, 2, 7.49, 7)).isFalse();
  }

  @Test
  void nanIsNeverAdversarial() {
    assertThat(rule.isAdversarial(2.0, 2, Double.NaN, 7)).isFalse();
    assertThat(rule.isAdversarial(Double.NaN, 2, 9, 7)).isFalse();
  }

  @Test
  void marginMustBeNonNegativeAndFinite() {
    assertThatThrownBy(() -> new AdversarialRule(-0.1)).hasMessageContaining("-0.1");
    assertThatThrownBy(() -> new AdversarialRule(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
