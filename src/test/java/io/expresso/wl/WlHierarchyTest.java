package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import org.junit.jupiter.api.Test;

/** The textbook separations of the WL hierarchy on small named graphs. */
class WlHierarchyTest {

  private final PairDistinguisher oneWl = WlMethods.byName("1-wl");
  private final PairDistinguisher threeWl = WlMethods.byName("3-wl");

  @Test
  void cslGraphsWithDifferentSkipsDefeat1WlButNot3Wl() {
    Graph g = TestGraphs.csl(41, 2);
    Graph h = TestGraphs.csl(41, 3);
    assertThat(g.isRegular() && h.isRegular()).isTrue();
    assertThat(oneWl.distinguishes(g, h)).isFalse();
    assertThat(threeWl.distinguishes(g, h)).isTrue();
  }

  @Test
  void decalinAndBicyclopentylDefeat1WlButNot3Wl() {
    Graph g = TestGraphs.decalin();
    Graph h = TestGraphs.bicyclopentyl();
    assertThat(oneWl.distinguishes(g, h)).isFalse();
    assertThat(threeWl.distinguishes(g, h)).isTrue();
  }

  @Test
  void shrikhandeAndRookGraphDefeatBoth() {
    Graph g = TestGraphs.shrikhande();
    Graph h = TestGraphs.rook4x4();
    assertThat(g.m()).isEqualTo(48);
    assertThat(h.m()).isEqualTo(48);
    assertThat(oneWl.distinguishes(g, h)).isFalse();
    assertThat(threeWl.distinguishes(g, h)).isFalse();
  }

  @Test
  void hexagonVersusTwoTrianglesSeparatesLocalFromGlobalMethods() {
    Graph g = TestGraphs.hexagon();
    Graph h = TestGraphs.twoTriangles();
    assertThat(oneWl.distinguishes(g, h)).isFalse();
    for (String m : new String[] {"3-wl", "4-wl", "spd-wl", "s3", "s4", "n1", "n2", "m1"}) {
      assertThat(WlMethods.byName(m).distinguishes(g, h)).as(m).isTrue();
    }
  }

  @Test
  void shrikhandeAndRookGraphAreSeparatedByEgoNetsAndFourNodeCounts() {
    // The 1-hop ego-nets differ: a 6-cycle around the root in Shrikhande, two triangles in the
    // rook's graph. S4 sees it too (4-cycles through a vertex), S3 does not (equal triangle counts).
    Graph g = TestGraphs.shrikhande();
    Graph h = TestGraphs.rook4x4();
    assertThat(WlMethods.byName("n1").distinguishes(g, h)).isTrue();
    assertThat(WlMethods.byName("s4").distinguishes(g, h)).isTrue();
    assertThat(WlMethods.byName("s3").distinguishes(g, h)).isFalse();
    assertThat(WlMethods.byName("spd-wl").distinguishes(g, h)).isFalse();
    assertThat(WlMethods.byName("m1").distinguishes(g, h)).isFalse();
  }

  @Test
  void graphsOfDifferentOrderAreDistinguishedByEveryMethod() {
    for (String m : WlMethods.names()) {
      assertThat(WlMethods.byName(m).distinguishes(TestGraphs.csl(7, 2), TestGraphs.csl(8, 2))).as(m).isTrue();
    }
  }

  @Test
  void fourWlSeparatesWhatThreeWlDoesAndNotRookFromShrikhande() {
    PairDistinguisher fourWl = WlMethods.byName("4-wl");
    assertThat(fourWl.distinguishes(TestGraphs.decalin(), TestGraphs.bicyclopentyl())).isTrue();
    // 3-FWL separates Shrikhande from the rook's graph (it counts 4-cliques: rook has K4s).
    assertThat(fourWl.distinguishes(TestGraphs.shrikhande(), TestGraphs.rook4x4())).isTrue();
  }
}
