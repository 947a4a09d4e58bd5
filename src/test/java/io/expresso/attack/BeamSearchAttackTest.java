package io.expresso.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.count.BruteForce;
import io.expresso.count.EgoNetFlipCounter;
import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphs;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BeamSearchAttackTest {

  /** Test double: the exact count. */
  static CountModel exact(Pattern p) {
    return graphs -> graphs.stream().mapToDouble(g -> InducedCounts.count(g, p)).toArray();
  }

  /**
   * Test double with a planted blind spot: exact, except that it over-counts by 0.2 per edge that
   * node {@code v} has beyond {@code baseDegree}. Three extra edges at v fool its rounding.
   */
  static CountModel blindSpot(Pattern p, int v, int baseDegree) {
    return graphs -> graphs.stream()
        .mapToDouble(g -> InducedCounts.count(g, p) + 0.2 * Math.max(0, g.degree(v) - baseDegree))
        .toArray();
  }

  /** Test double with small, nearly all distinct errors, so searches have a unique best move. */
  static CountModel noisy(Pattern p) {
    return graphs -> graphs.stream().mapToDouble(g -> {
      long h = 0;
      for (int[] e : g.edges()) {
        h += (e[0] * 131L + e[1] * 31L) % 97;
      }
      return InducedCounts.count(g, p) + (h % 89) / 400.0 - 0.11;
    }).toArray();
  }

  private static final Graph SBM = RandomGraphs.paperSbm(42);

  @Test
  void beamSearchFindsThePlantedBlindSpotAndRunsTheWholeBudget() {
    for (Pattern p : new Pattern[] {Pattern.TRIANGLE, Pattern.FOUR_CYCLE}) {
      AttackConfig config = AttackConfig.paper(p, PerturbationSpace.ANY, 6);
      CountModel model = blindSpot(p, 0, SBM.degree(0));
      AttackResult r = new BeamSearchAttack(config).attack(SBM, model);
      assertThat(r.cleanCorrect()).isTrue();
      assertThat(r.firstAdversarialStep()).as("%s", p).isEqualTo(3);
      assertThat(r.steps()).hasSize(6);
      // budgets 1 and 2 return non-adversarial graphs, 3 and more adversarial ones
      for (int t = 1; t <= 6; t++) {
        assertThat(r.adversarialAt(t)).as("%s budget %d", p, t).isEqualTo(t >= 3);
        Graph best = r.at(t).graph();
        assertThat(best.degree(0)).isEqualTo(SBM.degree(0) + t);
        assertThat(differingPairs(SBM, best)).isEqualTo(t);
      }
      assertThat(r.success()).isTrue();
      Graph adv = r.adversarialGraph(); // the best of the final beam, after all 6 steps
      assertThat(adv.degree(0)).isEqualTo(SBM.degree(0) + 6);
      assertThat(r.adversarialCount()).isEqualTo(InducedCounts.count(adv, p));
      assertThat(r.adversarialPrediction()).isEqualTo(model.predict(List.of(adv))[0]);
      assertThat(r.lossHistory()).hasSize(7);
      assertThat(r.lossHistory()[0]).isZero();
      assertThat(r.lossHistory()[6]).isCloseTo(1.2, org.assertj.core.api.Assertions.within(1e-9));
      // 10 members × up to 435 pairs per step after the first
      assertThat(r.perturbationsEvaluated()).isBetween(435L + 5 * 10 * 400L, 435L + 5 * 10 * 435L);
    }
  }

  /**
   * The paper's search runs the whole budget and judges the final beam's best, so it finds a
   * blind spot that lies behind a non-improving step. A decoy flip {1, 2} fools the model a
   * little at step 1 (where the old search stopped); from it, flipping {3, 4} is the only move
   * that is not worse, though it lowers the loss below the rounding threshold (step 2 returns no
   * adversarial example); flipping {5, 6} then reaches the blind spot (+5).
   */
  @Test
  void theSearchGoesPastAnEarlyExampleAndANonImprovingStepToTheBlindSpot() {
    Pattern p = Pattern.TRIANGLE;
    int[][] route = {{1, 2}, {3, 4}, {5, 6}};
    double[] bonus = {0.6, 0.4, 5.0}; // after 1, 2, 3 flips along the route
    CountModel blindSpot = graphs -> graphs.stream().mapToDouble(g -> {
      int along = 0;
      while (along < route.length && g.adjacent(route[along][0], route[along][1])
          != SBM.adjacent(route[along][0], route[along][1])) {
        along++;
      }
      boolean onRoute = along > 0 && differingPairs(SBM, g) == along;
      return InducedCounts.count(g, p) + (onRoute ? bonus[along - 1] : 0);
    }).toArray();
    AttackResult r = new BeamSearchAttack(new AttackConfig(p, PerturbationSpace.ANY, 3, 1, 0,
        AdversarialRule.paper(), 0)).attack(SBM, blindSpot);
    assertThat(r.firstAdversarialStep()).as("the decoy was adversarial at step 1").isEqualTo(1);
    assertThat(r.lossHistory()).containsExactly(new double[] {0, 0.6, 0.4, 5.0},
        org.assertj.core.api.Assertions.within(1e-9));
    assertThat(new boolean[] {r.adversarialAt(1), r.adversarialAt(2), r.adversarialAt(3)})
        .containsExactly(true, false, true);
    assertThat(r.success()).isTrue();
    Graph adv = r.adversarialGraph();
    assertThat(differingPairs(SBM, adv)).isEqualTo(3);
    for (int[] e : route) {
      assertThat(adv.adjacent(e[0], e[1])).isNotEqualTo(SBM.adjacent(e[0], e[1]));
    }
    assertThat(r.adversarialPrediction() - r.adversarialCount()).isCloseTo(5.0,
        org.assertj.core.api.Assertions.within(1e-9));
    // what the old search returned (the first adversarial candidate) is the budget-1 answer only
    assertThat(differingPairs(SBM, r.at(1).graph())).isEqualTo(1);
  }

  @Test
  void anExactModelIsNeverFooled() {
    AttackResult r = new BeamSearchAttack(AttackConfig.paper(Pattern.CHORDAL_CYCLE, PerturbationSpace.ANY, 3))
        .attack(SBM, exact(Pattern.CHORDAL_CYCLE));
    assertThat(r.success()).isFalse();
    assertThat(r.firstAdversarialStep()).isZero();
    assertThat(r.steps()).hasSize(3).noneMatch(AttackResult.Step::adversarial);
    assertThat(r.lossHistory()).containsOnly(0.0).hasSize(4);
    assertThat(differingPairs(SBM, r.adversarialGraph())).isEqualTo(3);
  }

  @Test
  void wrongCleanPredictionsAreNotAttacked() {
    CountModel off = graphs -> graphs.stream().mapToDouble(g -> InducedCounts.count(g, Pattern.TRIANGLE) + 0.7).toArray();
    AttackResult r = new BeamSearchAttack(AttackConfig.paper(Pattern.TRIANGLE, PerturbationSpace.ANY, 3)).attack(SBM, off);
    assertThat(r.cleanCorrect()).isFalse();
    assertThat(r.success()).isFalse();
    assertThat(r.perturbationsEvaluated()).isZero();
  }

  @Test
  void widthOneIsTheGreedySearch() {
    Graph g = RandomGraphs.erdosRenyi(9, 0.4, 5);
    for (Pattern p : new Pattern[] {Pattern.TRIANGLE, Pattern.TAILED_TRIANGLE, Pattern.THREE_PATH}) {
      CountModel model = noisy(p);
      AttackConfig config = new AttackConfig(p, PerturbationSpace.ANY, 4, 1, 0, new AdversarialRule(1e9), 0);
      AttackResult r = new BeamSearchAttack(config).attack(g, model);
      List<Double> greedy = naiveGreedy(g, p, model, 4);
      assertThat(r.lossHistory()).as("%s", p)
          .containsExactly(greedy.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }

  /** Greedy written from the definition: each step, the single new flip of largest loss. */
  private static List<Double> naiveGreedy(Graph g, Pattern p, CountModel model, int budget) {
    List<Double> history = new ArrayList<>();
    history.add(Math.abs(model.predict(List.of(g))[0] - InducedCounts.count(g, p)));
    boolean[][] used = new boolean[g.n()][g.n()];
    Graph current = g;
    for (int step = 0; step < budget; step++) {
      double best = Double.NEGATIVE_INFINITY;
      int bi = -1;
      int bj = -1;
      for (int i = 0; i < g.n(); i++) {
        for (int j = i + 1; j < g.n(); j++) {
          if (used[i][j]) {
            continue;
          }
          Graph f = current.flip(i, j);
          double loss = Math.abs(model.predict(List.of(f))[0] - BruteForce.count(f, p));
          if (loss > best) {
            best = loss;
            bi = i;
            bj = j;
          }
        }
      }
      used[bi][bj] = true;
      current = current.flip(bi, bj);
      history.add(best);
    }
    return history;
  }

  @Test
  void theFirstStepOfAnyBeamKeepsTheGreedyMove() {
    Graph g = RandomGraphs.erdosRenyi(9, 0.4, 8);
    CountModel model = noisy(Pattern.FOUR_CYCLE);
    AttackConfig one = new AttackConfig(Pattern.FOUR_CYCLE, PerturbationSpace.ANY, 1, 1, 0, new AdversarialRule(1e9), 0);
    AttackResult greedy = new BeamSearchAttack(one).attack(g, model);
    AttackResult beam = new BeamSearchAttack(one.withBeamWidth(10)).attack(g, model);
    assertThat(beam.lossHistory()).containsExactly(greedy.lossHistory());
    assertThat(beam.adversarialGraph6()).isEqualTo(greedy.adversarialGraph6());
  }

  @Test
  void beamSearchGetsPastADecoyThatTrapsGreedy() {
    Pattern p = Pattern.TRIANGLE;
    boolean clean12 = SBM.adjacent(1, 2);
    int d0 = SBM.degree(0);
    // flipping {1, 2} is the best first move (loss 0.3) but a dead end; edges added at node 0
    // pay 0.2 each and the third one fools the model
    CountModel decoy = graphs -> graphs.stream().mapToDouble(g -> InducedCounts.count(g, p)
        + (g.adjacent(1, 2) != clean12 ? 0.3 : 0.2 * Math.max(0, g.degree(0) - d0))).toArray();
    AttackConfig greedy = new AttackConfig(p, PerturbationSpace.ANY, 3, 1, 0, AdversarialRule.paper(), 0);
    AttackResult g = new BeamSearchAttack(greedy).attack(SBM, decoy);
    assertThat(g.success()).isFalse();
    assertThat(g.lossHistory()[1]).isEqualTo(0.3, org.assertj.core.api.Assertions.within(1e-9));
    AttackResult beam = new BeamSearchAttack(greedy.withBeamWidth(10)).attack(SBM, decoy);
    assertThat(beam.success()).isTrue();
    assertThat(beam.firstAdversarialStep()).isEqualTo(3);
  }

  @Test
  void preservingSpacesKeepCountAndCopiesAlongTheWholePath() {
    Graph g = RandomGraphs.erdosRenyi(10, 0.35, 3);
    for (Pattern p : new Pattern[] {Pattern.TRIANGLE, Pattern.FOUR_CYCLE, Pattern.TWO_PATH}) {
      CountModel model = noisy(p);
      var config = new AttackConfig(p, PerturbationSpace.COUNT_PRESERVING, 4, 3, 0, new AdversarialRule(1e9), 0);
      AttackResult rc = new BeamSearchAttack(config).attack(g, model);
      assertThat(BruteForce.count(rc.adversarialGraph(), p)).isEqualTo(BruteForce.count(g, p));
      assertThat(rc.adversarialCount()).isEqualTo(rc.cleanCount());
      var sconfig = new AttackConfig(p, PerturbationSpace.SUBGRAPH_PRESERVING, 4, 3, 0, new AdversarialRule(1e9), 0);
      AttackResult rs = new BeamSearchAttack(sconfig).attack(g, model);
      assertThat(BruteForce.copies(rs.adversarialGraph(), p)).isEqualTo(BruteForce.copies(g, p));
      assertThat(rs.perturbationsEvaluated()).isLessThanOrEqualTo(rc.perturbationsEvaluated());
    }
  }

  @Test
  void egoNetAndDeltaCountersDriveIdenticalSearches() {
    AttackConfig config = new AttackConfig(Pattern.CHORDAL_CYCLE, PerturbationSpace.COUNT_PRESERVING, 3, 4, 0,
        AdversarialRule.paper(), 0);
    CountModel model = noisy(Pattern.CHORDAL_CYCLE);
    AttackResult delta = new BeamSearchAttack(config).attack(SBM, model);
    AttackResult ego = new BeamSearchAttack(config, new EgoNetFlipCounter()).attack(SBM, model);
    assertThat(ego.lossHistory()).containsExactly(delta.lossHistory());
    assertThat(ego.adversarialGraph6()).isEqualTo(delta.adversarialGraph6());
  }

  @Test
  void degreeWeightedSamplingIsSeededAndBounded() {
    AttackConfig config = new AttackConfig(Pattern.TRIANGLE, PerturbationSpace.ANY, 3, 5, 40, new AdversarialRule(1e9), 7);
    CountModel model = noisy(Pattern.TRIANGLE);
    AttackResult a = new BeamSearchAttack(config).attack(SBM, model);
    AttackResult b = new BeamSearchAttack(config).attack(SBM, model);
    assertThat(a.adversarialGraph6()).isEqualTo(b.adversarialGraph6());
    assertThat(a.lossHistory()).containsExactly(b.lossHistory());
    assertThat(a.perturbationsEvaluated()).isLessThanOrEqualTo(40L + 2 * 5 * 40L).isGreaterThan(0);
    assertThat(differingPairs(SBM, a.adversarialGraph())).isEqualTo(3);
  }

  @Test
  void aModelReturningTheWrongNumberOfPredictionsIsReported() {
    CountModel broken = graphs -> new double[] {0, 0};
    assertThatThrownBy(() -> new BeamSearchAttack(AttackConfig.paper(Pattern.TRIANGLE, PerturbationSpace.ANY, 1))
        .attack(SBM, broken))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("model returned 2 predictions for 1 graphs");
  }

  @Test
  void resultGraphsRoundTripThroughGraph6() {
    AttackResult r = new BeamSearchAttack(AttackConfig.paper(Pattern.TRIANGLE, PerturbationSpace.ANY, 1))
        .attack(SBM, exact(Pattern.TRIANGLE));
    assertThat(r.cleanGraph()).isEqualTo(SBM);
    assertThat(r.cleanGraph6()).isEqualTo(Graph6.encode(SBM));
  }

  static int differingPairs(Graph a, Graph b) {
    int d = 0;
    for (int i = 0; i < a.n(); i++) {
      for (int j = i + 1; j < a.n(); j++) {
        if (a.adjacent(i, j) != b.adjacent(i, j)) {
          d++;
        }
      }
    }
    return d;
  }
}
