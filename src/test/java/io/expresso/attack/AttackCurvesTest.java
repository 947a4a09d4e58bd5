package io.expresso.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttackCurvesTest {

  /** An attack of budget 10 whose beam's best is {@code adversarial} (and adversarial) from step {@code firstSuccess} on. */
  private static AttackResult result(boolean cleanCorrect, int firstSuccess, Graph clean, Graph adversarial) {
    boolean[] at = new boolean[10];
    for (int t = 1; t <= 10; t++) {
      at[t - 1] = firstSuccess > 0 && t >= firstSuccess;
    }
    return result(cleanCorrect, clean, adversarial, at);
  }

  /** An attack whose beam's best after step t is {@code adversarial}, judged adversarial iff {@code at[t − 1]}. */
  static AttackResult result(boolean cleanCorrect, Graph clean, Graph adversarial, boolean... at) {
    long cc = InducedCounts.count(clean, Pattern.TRIANGLE);
    long ac = InducedCounts.count(adversarial, Pattern.TRIANGLE);
    List<AttackResult.Step> steps = new java.util.ArrayList<>();
    int first = 0;
    for (int t = 0; t < at.length && cleanCorrect; t++) {
      steps.add(new AttackResult.Step(Graph6.encode(adversarial), ac, at[t] ? ac + 1 : ac, at[t]));
      first = first == 0 && at[t] ? t + 1 : first;
    }
    return new AttackResult(Pattern.TRIANGLE, PerturbationSpace.ANY, at.length, 1, Graph6.encode(clean), cc, cc,
        cleanCorrect, first, steps, new double[] {0}, 0, 0);
  }

  private static final Graph PATH = Graph.fromEdges(3, 0, 1, 1, 2);
  private static final Graph TRIANGLE = Graph.fromEdges(3, 0, 1, 1, 2, 0, 2);

  @Test
  void successRateJudgesTheExampleReturnedAtEachBudgetOverCorrectlyPredictedGraphs() {
    List<AttackResult> results = List.of(
        result(true, 1, PATH, TRIANGLE), result(true, 4, PATH, TRIANGLE), result(true, 0, PATH, PATH),
        result(true, 0, PATH, PATH), result(false, 0, PATH, PATH));
    assertThat(AttackCurves.successRate(results, new int[] {1, 3, 4, 10})).containsExactly(0.25, 0.25, 0.5, 0.5);
    assertThat(AttackCurves.successRate(List.of(result(false, 0, PATH, PATH)), new int[] {1})[0]).isNaN();
    // not monotone: the example returned after 2 steps is adversarial, the one after 3 is not;
    // budgets past the last step read the last beam
    AttackResult dip = result(true, PATH, TRIANGLE, false, true, false, true);
    assertThat(AttackCurves.successRate(List.of(dip), new int[] {1, 2, 3, 4, 9})).containsExactly(0, 1, 0, 1, 1);
    assertThat(dip.firstAdversarialStep()).isEqualTo(2);
  }

  @Test
  void normalisedAucIsTheTrapezoidAreaOverTheUnityArea() {
    double[] x = {0.01, 0.05, 0.10, 0.25};
    assertThat(AttackCurves.normalisedAuc(x, new double[] {1, 1, 1, 1})).isCloseTo(1.0, within(1e-12));
    assertThat(AttackCurves.normalisedAuc(x, new double[] {0, 0, 0, 0})).isZero();
    // (0.04·0.35 + 0.05·0.55 + 0.15·0.7) / 0.24
    assertThat(AttackCurves.normalisedAuc(x, new double[] {0.2, 0.5, 0.6, 0.8}))
        .isCloseTo((0.04 * 0.35 + 0.05 * 0.55 + 0.15 * 0.7) / 0.24, within(1e-12));
    assertThat(AttackCurves.normalisedAuc(new double[] {0.1}, new double[] {0.3})).isEqualTo(0.3);
  }

  @Test
  void transferRequiresTheExampleToBeAdversarialForEveryOtherModel() {
    // the adversarial example turns a 2-path into a triangle (count 0 -> 1)
    List<AttackResult> results = List.of(result(true, 2, PATH, TRIANGLE), result(true, 0, PATH, PATH));
    CountModel fooled = graphs -> graphs.stream().mapToDouble(g -> 0.0).toArray(); // always predicts 0
    CountModel exact = graphs -> graphs.stream().mapToDouble(g -> InducedCounts.count(g, Pattern.TRIANGLE)).toArray();
    AdversarialRule rule = AdversarialRule.paper();
    int[] budgets = {1, 2, 2, 5};
    assertThat(AttackCurves.transfers(results, List.of(fooled), rule, budgets))
        .isDeepEqualTo(new boolean[][] {{false, true, true, true}, {false, false, false, false}});
    assertThat(AttackCurves.transfers(results, List.of(fooled, exact), rule, budgets))
        .isDeepEqualTo(new boolean[][] {{false, false, false, false}, {false, false, false, false}});
    assertThat(AttackCurves.transferRate(results, List.of(fooled), rule, new int[] {1, 2})).containsExactly(0.0, 0.5);
    // per budget: only the example of the budgets where the attack returned one is scored
    AttackResult late = result(true, PATH, TRIANGLE, true, false);
    assertThat(AttackCurves.transfers(List.of(late), List.of(fooled), rule, new int[] {1, 2}))
        .isDeepEqualTo(new boolean[][] {{true, false}});
  }
}
