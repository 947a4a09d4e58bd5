package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.count.EdgeOrbitCounts;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** GSN's counts one-hot over the values of BREC's GSN dataset, as its one_hot_unique encoder ranks them. */
class GsnCountEncodingTest {

  @Test
  void aKnownCountTakesItsRankAndAnUnknownOneItsColumnsOverflowSlot() {
    // column 0 (triangle) holds 0..9: rank = value; column 2 (4-clique) skips 14 and 15
    assertThat(GsnCountEncoding.slot(0, 0)).isEqualTo(0);
    assertThat(GsnCountEncoding.slot(0, 9)).isEqualTo(9);
    assertThat(GsnCountEncoding.slot(0, 10)).isEqualTo(10); // overflow of column 0
    assertThat(GsnCountEncoding.slot(1, 0)).isEqualTo(11); // column 1 starts after 10 values + overflow
    int clique = GsnCountEncoding.slot(2, 0);
    assertThat(GsnCountEncoding.slot(2, 16)).isEqualTo(clique + 14);
    assertThat(GsnCountEncoding.known(2, 14)).isFalse();
    assertThat(GsnCountEncoding.slot(2, 14)).isEqualTo(GsnCountEncoding.slot(2, 1_000));
    assertThat(GsnCountEncoding.slot(11, 1_000)).isEqualTo(GsnCountEncoding.width() - 1);
  }

  @Test
  void everyColumnOfAnEdgeSetsOneSlotOfItsOwnBlock() {
    Graph g = Graph6.decode("ICZJvZsNg"); // BREC's pair 0, first graph
    for (long[] edge : EdgeOrbitCounts.perDirectedEdge(g)) {
      Set<Integer> slots = new HashSet<>();
      for (int c = 0; c < edge.length; c++) {
        assertThat(GsnCountEncoding.known(c, edge[c])).isTrue();
        slots.add(GsnCountEncoding.slot(c, edge[c]));
      }
      assertThat(slots).hasSize(EdgeOrbitCounts.columns().size());
    }
  }
}
