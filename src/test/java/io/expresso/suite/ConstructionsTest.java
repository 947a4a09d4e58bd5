package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Components;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphProperties;
import io.expresso.iso.Isomorphism;
import io.expresso.wl.PairDistinguisher;
import io.expresso.wl.WlMethods;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The constructions against their definitions and the WL hierarchy facts they are known for. */
class ConstructionsTest {

  static final PairDistinguisher ONE_WL = WlMethods.byName("1-wl");
  static final PairDistinguisher THREE_WL = WlMethods.byName("3-wl");

  @Test
  void cslGraphsAreFourRegularCirculantsOn41Vertices() {
    for (int r : Constructions.CSL_SKIPS) {
      Graph g = Constructions.csl(41, r);
      assertThat(g.n()).isEqualTo(41);
      assertThat(g.minDegree()).isEqualTo(4);
      assertThat(g.maxDegree()).isEqualTo(4);
      for (int i = 0; i < 41; i++) {
        assertThat(g.adjacent(i, (i + 1) % 41)).isTrue();
        assertThat(g.adjacent(i, (i + r) % 41)).isTrue();
      }
    }
    assertThatThrownBy(() -> Constructions.csl(41, 21)).hasMessageContaining("2 <= r < n/2");
    assertThatThrownBy(() -> Constructions.circulant(8, 1, 7)).hasMessage("jump 7 repeats another jump mod 8");
    assertThat(Constructions.circulant(8, 4).m()).isEqualTo(4); // the jump n/2 is a perfect matching
  }

  @Test
  void oneWlFailsAndThreeWlSucceedsOnCsl2VersusCsl3() {
    Graph a = Constructions.csl(41, 2);
    Graph b = Constructions.csl(41, 3);
    assertThat(Isomorphism.isomorphic(a, b)).isFalse();
    assertThat(ONE_WL.distinguishes(a, b)).isFalse();
    assertThat(THREE_WL.distinguishes(a, b)).isTrue();
  }

  @Test
  void stronglyRegularGraphsHaveTheirParameters() {
    assertThat(GraphProperties.stronglyRegularParameters(Constructions.shrikhande())).containsExactly(16, 6, 2, 2);
    assertThat(GraphProperties.stronglyRegularParameters(Constructions.rook(4))).containsExactly(16, 6, 2, 2);
    assertThat(GraphProperties.stronglyRegularParameters(Constructions.triangular(8))).containsExactly(28, 12, 6, 4);
    for (int k = 1; k <= 3; k++) {
      assertThat(GraphProperties.stronglyRegularParameters(Constructions.chang(k))).containsExactly(28, 12, 6, 4);
    }
    assertThat(GraphProperties.stronglyRegularParameters(
        Constructions.latinSquareGraph(Constructions.nonGroupSquare5()))).containsExactly(25, 12, 5, 6);
    assertThat(GraphProperties.stronglyRegularParameters(
        Constructions.latinSquareGraph(Constructions.s3Square()))).containsExactly(36, 15, 6, 6);
  }

  @Test
  void shrikhandeAndRookAreNonIsomorphicAndDefeatBothOneAndThreeWl() {
    Graph s = Constructions.shrikhande();
    Graph r = Constructions.rook(4);
    assertThat(Isomorphism.isomorphic(s, r)).isFalse();
    assertThat(ONE_WL.distinguishes(s, r)).isFalse();
    assertThat(THREE_WL.distinguishes(s, r)).isFalse();
    // The rook's graph has 4-cliques (rows); the Shrikhande graph has none: a direct witness.
    assertThat(hasK4(r)).isTrue();
    assertThat(hasK4(s)).isFalse();
  }

  private static boolean hasK4(Graph g) {
    for (int a = 0; a < g.n(); a++) {
      for (int b = a + 1; b < g.n(); b++) {
        for (int c = b + 1; c < g.n(); c++) {
          for (int d = c + 1; d < g.n(); d++) {
            if (g.adjacent(a, b) && g.adjacent(a, c) && g.adjacent(a, d) && g.adjacent(b, c)
                && g.adjacent(b, d) && g.adjacent(c, d)) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  @Test
  void changGraphsAndT8ArePairwiseNonIsomorphic() {
    List<Graph> gs = List.of(Constructions.triangular(8), Constructions.chang(1), Constructions.chang(2), Constructions.chang(3));
    for (int i = 0; i < gs.size(); i++) {
      for (int j = i + 1; j < gs.size(); j++) {
        assertThat(Isomorphism.isomorphic(gs.get(i), gs.get(j))).as("graphs %d and %d", i, j).isFalse();
      }
    }
    assertThatThrownBy(() -> Constructions.chang(4)).hasMessageContaining("three Chang graphs");
  }

  @Test
  void triangularGraphNumbersPairsLexicographically() {
    assertThat(Constructions.pairIndex(8, 0, 1)).isZero();
    assertThat(Constructions.pairIndex(8, 1, 0)).isZero();
    assertThat(Constructions.pairIndex(8, 0, 7)).isEqualTo(6);
    assertThat(Constructions.pairIndex(8, 1, 2)).isEqualTo(7);
    assertThat(Constructions.pairIndex(8, 6, 7)).isEqualTo(27);
    Graph t = Constructions.triangular(8);
    assertThat(t.adjacent(Constructions.pairIndex(8, 0, 1), Constructions.pairIndex(8, 1, 5))).isTrue();
    assertThat(t.adjacent(Constructions.pairIndex(8, 0, 1), Constructions.pairIndex(8, 2, 5))).isFalse();
  }

  @Test
  void latinSquaresAreValidatedAndDistinctMainClassesGiveDistinctGraphs() {
    assertThatThrownBy(() -> Constructions.latinSquareGraph(new int[][] {{0, 1}, {0, 1}}))
        .hasMessageContaining("not a Latin square");
    assertThat(Isomorphism.isomorphic(
        Constructions.latinSquareGraph(Constructions.cyclicSquare(5)),
        Constructions.latinSquareGraph(Constructions.nonGroupSquare5()))).isFalse();
    assertThat(Isomorphism.isomorphic(
        Constructions.latinSquareGraph(Constructions.cyclicSquare(6)),
        Constructions.latinSquareGraph(Constructions.s3Square()))).isFalse();
    // Isotopic squares give isomorphic graphs: Z_5 with rows permuted.
    int[][] z5 = Constructions.cyclicSquare(5);
    int[][] shuffled = {z5[3], z5[0], z5[4], z5[1], z5[2]};
    assertThat(Isomorphism.isomorphic(Constructions.latinSquareGraph(z5), Constructions.latinSquareGraph(shuffled))).isTrue();
  }

  @Test
  void decalinVersusBicyclopentyl() {
    Graph d = Constructions.decalin();
    Graph b = Constructions.bicyclopentyl();
    assertThat(d.n()).isEqualTo(10);
    assertThat(d.m()).isEqualTo(11);
    assertThat(b.m()).isEqualTo(11);
    assertThat(ONE_WL.distinguishes(d, b)).isFalse();
    assertThat(THREE_WL.distinguishes(d, b)).isTrue();
  }

  @Test
  void cfiGraphsFollowTheConstruction() {
    Graph k4 = Constructions.complete(4);
    Graph untwisted = Constructions.cfi(k4, false);
    Graph twisted = Constructions.cfi(k4, true);
    // Per base vertex of degree 3: 2^2 middle vertices (degree 3) + 6 end vertices (degree 2 + 1).
    assertThat(untwisted.n()).isEqualTo(4 * (4 + 6));
    assertThat(untwisted.m()).isEqualTo(4 * 4 * 3 + 6 * 2);
    assertThat(twisted.n()).isEqualTo(untwisted.n());
    assertThat(twisted.m()).isEqualTo(untwisted.m());
    assertThat(Isomorphism.isomorphic(untwisted, twisted)).isFalse();
    // Over a cycle C_n the untwisted graph is two (3n)-cycles and the twisted one a (6n)-cycle.
    Graph c5a = Constructions.cfi(Constructions.cycle(5), false);
    Graph c5b = Constructions.cfi(Constructions.cycle(5), true);
    assertThat(Components.count(c5a)).isEqualTo(2);
    assertThat(Components.count(c5b)).isEqualTo(1);
    assertThat(c5b.isRegular()).isTrue();
    assertThat(c5b.maxDegree()).isEqualTo(2);
    assertThatThrownBy(() -> Constructions.cfi(Graph.fromEdges(3, 0, 1, 1, 2), false))
        .hasMessageContaining("minimum degree >= 2");
  }

  @Test
  void cfiOverTreewidthThreeDefeatsThreeWlWhileTreewidthTwoDoesNot() {
    for (Graph base : List.of(Constructions.complete(4), Constructions.prism(), Constructions.completeBipartite(3, 3))) {
      List<Graph> p = Constructions.cfiPair(base);
      assertThat(Isomorphism.isomorphic(p.get(0), p.get(1))).isFalse();
      assertThat(ONE_WL.distinguishes(p.get(0), p.get(1))).isFalse();
      assertThat(THREE_WL.distinguishes(p.get(0), p.get(1))).as("3-WL on CFI over %s", base).isFalse();
    }
    Graph diamond = Graph.fromEdges(4, 0, 1, 0, 2, 1, 2, 1, 3, 2, 3);
    for (Graph base : List.of(Constructions.cycle(5), Constructions.cycle(3), diamond)) {
      List<Graph> p = Constructions.cfiPair(base);
      assertThat(ONE_WL.distinguishes(p.get(0), p.get(1))).isFalse();
      assertThat(THREE_WL.distinguishes(p.get(0), p.get(1))).as("3-WL on CFI over %s", base).isTrue();
    }
  }

  @Test
  void fourWlSeparatesTheCfiPairOverK4() {
    // K_4 has treewidth 3, so 3-FWL ("4-wl") separates its CFI pair though 2-FWL cannot.
    List<Graph> p = Constructions.cfiPair(Constructions.complete(4));
    assertThat(WlMethods.byName("4-wl").distinguishes(p.get(0), p.get(1))).isTrue();
  }

  @Test
  void seidelSwitchingComplementsAcrossTheCut() {
    Graph path = Graph.fromEdges(3, 0, 1, 1, 2);
    Graph switched = Constructions.seidelSwitch(path, new boolean[] {true, false, false});
    assertThat(switched).isEqualTo(Graph.fromEdges(3, 0, 2, 1, 2));
  }
}
