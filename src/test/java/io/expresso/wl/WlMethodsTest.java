package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import org.junit.jupiter.api.Test;

class WlMethodsTest {

  @Test
  void everyNameResolvesToAMethodOfThatName() {
    assertThat(WlMethods.names()).containsExactly("1-wl", "3-wl", "4-wl", "spd-wl", "s3", "s4", "n1", "n2", "m1");
    for (String name : WlMethods.names()) {
      assertThat(WlMethods.byName(name).name()).isEqualTo(name);
    }
  }

  @Test
  void unknownNameListsTheValidOnes() {
    assertThatThrownBy(() -> WlMethods.byName("2-wl"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown method '2-wl'; valid methods: 1-wl, 3-wl, 4-wl, spd-wl, s3, s4, n1, n2, m1");
  }

  @Test
  void degenerateSizesWork() {
    for (String name : WlMethods.names()) {
      PairDistinguisher m = WlMethods.byName(name);
      assertThat(m.distinguishes(Graph.empty(0), Graph.empty(0))).as(name).isFalse();
      assertThat(m.distinguishes(Graph.empty(1), Graph.empty(1))).as(name).isFalse();
      assertThat(m.distinguishes(Graph.empty(2), Graph.fromEdges(2, 0, 1))).as(name).isTrue();
    }
  }

  @Test
  void fourWlRefusesLargeGraphsWithTheLimit() {
    assertThatThrownBy(() -> WlMethods.byName("4-wl").distinguishes(TestGraphs.csl(41, 2), TestGraphs.csl(41, 3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("4-wl (3-FWL) handles graphs of at most 40 vertices; got 41");
  }
}
