package io.expresso.count;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.Arrays;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class InducedCountsTest {

  @Provide
  Arbitrary<Graph> smallGraphs() {
    return RandomGraphArbitraries.graphs(0, 11);
  }

  @Property(tries = 150)
  void graphCountsEqualBruteForceForEveryPattern(@ForAll("smallGraphs") Graph g) {
    long[] all = InducedCounts.countAll(g);
    for (Pattern p : Pattern.values()) {
      long expected = BruteForce.count(g, p);
      assertThat(InducedCounts.count(g, p)).as("%s in %s", p, g).isEqualTo(expected);
      assertThat(all[p.ordinal()]).as("countAll %s in %s", p, g).isEqualTo(expected);
    }
  }

  @Property(tries = 80)
  void perNodeCountsEqualBruteForce(@ForAll("smallGraphs") Graph g) {
    for (Pattern p : Pattern.values()) {
      long[] perNode = InducedCounts.perNode(g, p);
      assertThat(perNode).as("%s in %s", p, g).containsExactly(BruteForce.perNode(g, p));
      long[][] orbits = InducedCounts.perNodeOrbits(g, p);
      for (int v = 0; v < g.n(); v++) {
        assertThat(Arrays.stream(orbits[v]).sum()).isEqualTo(perNode[v]);
      }
    }
  }

  @Test
  void patternGraphsHaveTheirDeclaredShape() {
    for (Pattern p : Pattern.values()) {
      Graph h = p.graph();
      assertThat(h.n()).isEqualTo(p.k());
      assertThat(h.m()).isEqualTo(p.edges());
      assertThat(ShortestPaths.diameter(h)).as("diameter of %s", p).isEqualTo(p.diameter());
      // each pattern is one copy of itself, and of no other pattern of its size
      for (Pattern q : Pattern.values()) {
        if (q.k() != p.k()) {
          continue;
        }
        assertThat(InducedCounts.count(h, q)).as("%s in %s", q, p).isEqualTo(p == q ? 1 : 0);
      }
    }
  }

  @Test
  void knownCountsOnSmallGraphs() {
    Graph k5 = Pattern.FOUR_CLIQUE.graph().complement().complement();
    Graph complete5 = Graph.fromEdges(5, 0, 1, 0, 2, 0, 3, 0, 4, 1, 2, 1, 3, 1, 4, 2, 3, 2, 4, 3, 4);
    assertThat(InducedCounts.count(complete5, Pattern.TRIANGLE)).isEqualTo(10);
    assertThat(InducedCounts.count(complete5, Pattern.FOUR_CLIQUE)).isEqualTo(5);
    assertThat(InducedCounts.count(complete5, Pattern.TWO_PATH)).isZero(); // induced: no open paths
    assertThat(InducedCounts.count(k5, Pattern.FOUR_CLIQUE)).isEqualTo(1);
    // C6: six induced 2-paths, six induced 3-paths, no 4-cycle
    Graph c6 = Graph.fromEdges(6, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0);
    assertThat(InducedCounts.count(c6, Pattern.TWO_PATH)).isEqualTo(6);
    assertThat(InducedCounts.count(c6, Pattern.THREE_PATH)).isEqualTo(6);
    assertThat(InducedCounts.count(c6, Pattern.FOUR_CYCLE)).isZero();
    // star K1,4: C(4,3) = 4 induced 3-stars, all centred at 0
    Graph star = Graph.fromEdges(5, 0, 1, 0, 2, 0, 3, 0, 4);
    assertThat(InducedCounts.perNode(star, Pattern.THREE_STAR)).containsExactly(4, 3, 3, 3, 3);
    assertThat(InducedCounts.perNodeOrbits(star, Pattern.THREE_STAR)[0]).containsExactly(0, 0, 0, 4);
    assertThat(InducedCounts.perNodeOrbits(star, Pattern.THREE_STAR)[1]).containsExactly(0, 3, 0, 0);
  }

  @Test
  void countsWorkAcrossBitsetWordBoundaries() {
    Graph g = RandomGraphs.erdosRenyi(70, 0.08, 7);
    for (Pattern p : new Pattern[] {Pattern.TRIANGLE, Pattern.FOUR_CYCLE, Pattern.THREE_PATH}) {
      assertThat(InducedCounts.count(g, p)).as("%s", p).isEqualTo(BruteForce.count(g, p));
    }
  }

  @Test
  void patternNamesParseAndUnknownNamesListTheValidOnes() {
    for (Pattern p : Pattern.values()) {
      assertThat(Pattern.fromName(p.cliName())).isEqualTo(p);
    }
    assertThat(Pattern.fromName("4-Cycle")).isEqualTo(Pattern.FOUR_CYCLE);
    assertThatThrownBy(() -> Pattern.fromName("square"))
        .hasMessage("unknown pattern 'square'; valid patterns: triangle, 2-path, 4-clique,"
            + " chordal-cycle, tailed-triangle, 3-star, 4-cycle, 3-path");
  }
}
