package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Known inclusions between the methods, checked on random pairs: whatever the weaker method
 * separates, the stronger one separates too.
 */
class MonotonicityTest {

  /** Random pairs with equal vertex and edge counts, plus 1-WL-equivalent regular pairs. */
  private static List<Graph[]> pairs() {
    Random rnd = new Random(20261122);
    List<Graph[]> pairs = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      int n = 4 + rnd.nextInt(6);
      Graph g = TestGraphs.random(rnd, n, 0.45);
      Graph h = TestGraphs.random(rnd, n, 0.45);
      if (g.m() == h.m()) {
        pairs.add(new Graph[] {g, h});
      }
    }
    for (int i = 0; i < 20; i++) {
      int n = 6 + 2 * rnd.nextInt(4);
      pairs.add(new Graph[] {TestGraphs.randomRegular(rnd, n, 3), TestGraphs.randomRegular(rnd, n, 3)});
    }
    return pairs;
  }

  private static void assertStrongerThan(String strong, String weak) {
    PairDistinguisher s = WlMethods.byName(strong);
    PairDistinguisher w = WlMethods.byName(weak);
    int weakCount = 0;
    for (Graph[] p : pairs()) {
      if (w.distinguishes(p[0], p[1])) {
        weakCount++;
        assertThat(s.distinguishes(p[0], p[1])).as("%s must separate %s vs %s like %s", strong, p[0], p[1], weak).isTrue();
      }
    }
    assertThat(weakCount).as("the sample must exercise " + weak).isPositive();
  }

  @Test
  void everyMethodIsAtLeastAsStrongAs1Wl() {
    for (String m : WlMethods.names()) {
      assertStrongerThan(m, "1-wl");
    }
  }

  @Test
  void twoFwlBoundsSpdWlS3AndNodeMarking() {
    assertStrongerThan("3-wl", "spd-wl");
    assertStrongerThan("3-wl", "s3");
    assertStrongerThan("3-wl", "m1");
  }

  @Test
  void largerRadiusAndHigherDimensionAreStronger() {
    assertStrongerThan("n2", "n1");
    assertStrongerThan("4-wl", "3-wl");
  }

  @Test
  void regularPairsAreEquivalentFor1WlButSomeAreSeparatedByTwoFwl() {
    Random rnd = new Random(7);
    int separated = 0;
    for (int i = 0; i < 10; i++) {
      Graph g = TestGraphs.randomRegular(rnd, 12, 3);
      Graph h = TestGraphs.randomRegular(rnd, 12, 3);
      assertThat(WlMethods.byName("1-wl").distinguishes(g, h)).isFalse();
      separated += WlMethods.byName("3-wl").distinguishes(g, h) ? 1 : 0;
    }
    assertThat(separated).isPositive();
  }
}
