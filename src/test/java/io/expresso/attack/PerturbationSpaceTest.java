package io.expresso.attack;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.count.BruteForce;
import io.expresso.count.DeltaFlipCounter;
import io.expresso.count.MutableGraph;
import io.expresso.count.Pattern;
import io.expresso.count.RandomGraphArbitraries;
import io.expresso.graph.Graph;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class PerturbationSpaceTest {

  @Provide
  Arbitrary<Graph> graphs() {
    return RandomGraphArbitraries.graphs(2, 9);
  }

  @Property(tries = 40)
  void singleFlipMembershipEqualsTheDefinitions(@ForAll("graphs") Graph g) {
    DeltaFlipCounter through = new DeltaFlipCounter();
    MutableGraph work = MutableGraph.of(g);
    for (Pattern p : Pattern.values()) {
      var copies = BruteForce.copies(g, p);
      for (int i = 0; i < g.n(); i++) {
        for (int j = i + 1; j < g.n(); j++) {
          Graph flipped = g.flip(i, j);
          var flippedCopies = BruteForce.copies(flipped, p);
          assertThat(PerturbationSpace.ANY.admitsFlip(through, work, p, i, j)).isTrue();
          assertThat(PerturbationSpace.COUNT_PRESERVING.admitsFlip(through, work, p, i, j))
              .as("P^c %s {%d,%d} in %s", p, i, j, g)
              .isEqualTo(flippedCopies.size() == copies.size());
          assertThat(PerturbationSpace.SUBGRAPH_PRESERVING.admitsFlip(through, work, p, i, j))
              .as("P^s %s {%d,%d} in %s", p, i, j, g)
              .isEqualTo(flippedCopies.equals(copies));
        }
      }
    }
  }

  @Test
  void spaceNamesParse() {
    assertThat(PerturbationSpace.fromName("count")).isEqualTo(PerturbationSpace.COUNT_PRESERVING);
    assertThat(PerturbationSpace.fromName("SUBGRAPH")).isEqualTo(PerturbationSpace.SUBGRAPH_PRESERVING);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> PerturbationSpace.fromName("all"))
        .hasMessage("unknown perturbation space 'all'; valid: any, count, subgraph");
  }

  @Test
  void budgetsFromFractionsRoundUpToAtLeastOneFlip() {
    assertThat(Budgets.fromFractions(Budgets.PAPER_FRACTIONS, 70.0)).containsExactly(1, 4, 7, 18);
    assertThat(Budgets.fromFraction(0.10, 40.0)).isEqualTo(4);
    assertThat(Budgets.fromFraction(0.01, 0.0)).isEqualTo(1);
  }
}
