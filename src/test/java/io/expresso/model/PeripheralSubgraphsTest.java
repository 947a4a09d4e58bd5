package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import org.junit.jupiter.api.Test;

class PeripheralSubgraphsTest {

  @Test
  void ringsAndTheirSubgraphsOfAFiveCycleByHand() {
    PeripheralSubgraphs p = PeripheralSubgraphs.of(Constructions.cycle(5), 3);
    assertThat(p.hop()[0][0]).containsExactlyInAnyOrder(1, 4);
    assertThat(p.hop()[0][1]).containsExactlyInAnyOrder(2, 3);
    assertThat(p.hop()[0][2]).isEmpty();
    // hop 1: {1, 4}, not adjacent; hop 2: {2, 3}, one edge (two ordered), one ordered pair each way at distance 1
    assertThat(p.features()[0][0]).containsExactly(2, 0, 0, 0, 0, 0, 0);
    assertThat(p.features()[0][1]).containsExactly(2, 2, 0, 2, 0, 0, 0);
  }

  @Test
  void configurationCountsEdgesAmongVerticesEquidistantFromEachVertex() {
    // the 1-ring of a wheel's hub is a 6-cycle: ordered pairs at distance 1, 2, 3 are 12, 12, 6;
    // from each rim vertex j the two vertices at distance 1 are not adjacent, nor those at 2: 0
    Graph wheel = Graph.fromEdges(7, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 1);
    float[] hub = PeripheralSubgraphs.of(wheel, 2).features()[0][0];
    assertThat(hub).containsExactly(6, 12, 0, 12, 12, 6, 0);
    // a triangle as a ring: from each vertex the other two are at distance 1 and adjacent: 3 × 2
    Graph k4 = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
    assertThat(PeripheralSubgraphs.of(k4, 1).features()[0][0]).containsExactly(3, 6, 6, 6, 0, 0, 0);
  }

  @Test
  void kpGnnNeedsAWidthThatSplitsIntoTheHops() {
    ModelSpec bad = ModelSpec.parse("kp-gnn:hidden=30,radius=8");
    assertThatThrownBy(() -> GraphModel.create(bad, Head.EMBEDDING, Device.cpu(), 0))
        .hasMessageContaining("hidden (30) must be a multiple of radius K (8)");
  }
}
