package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Refinement stopped by a cancellation token; promptness is asserted on rounds asked about, not on time. */
class WlCancellationTest {

  /** The disjoint union of cycles of the given lengths. */
  private static Graph cycles(int... lengths) {
    int n = 0;
    for (int l : lengths) {
      n += l;
    }
    GraphBuilder b = new GraphBuilder(n);
    int base = 0;
    for (int l : lengths) {
      for (int i = 0; i < l; i++) {
        b.addEdge(base + i, base + (i + 1) % l);
      }
      base += l;
    }
    return b.build();
  }

  @Test
  void threeWlOnTwoHundredVerticesStopsAtTheNextRound() {
    // C200 against 2×C100: regular, so only distances tell them apart, learnt over several rounds
    Graph g = cycles(200);
    Graph h = cycles(100, 100);
    PairDistinguisher threeWl = WlMethods.byName("3-wl");
    AtomicInteger rounds = new AtomicInteger();
    assertThat(threeWl.distinguishes(g, h, () -> rounds.incrementAndGet() < 0)).isTrue();
    assertThat(rounds.get()).as("the fixture needs several rounds").isGreaterThan(3);

    AtomicInteger queries = new AtomicInteger();
    assertThatThrownBy(() -> threeWl.distinguishes(g, h, () -> queries.incrementAndGet() > 2))
        .isInstanceOf(CancellationException.class)
        .hasMessageContaining("cancelled after 2 rounds");
    assertThat(queries).hasValue(3);
  }

  @Test
  void everyMethodHonoursAPreCancelledToken() {
    // isomorphic graphs never differ, so no method can finish before its first round
    Graph g = TestGraphs.decalin();
    Graph h = g.relabel(new int[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
    for (String name : WlMethods.names()) {
      PairDistinguisher m = WlMethods.byName(name);
      assertThatThrownBy(() -> m.distinguishes(g, h, () -> true)).as(name).isInstanceOf(CancellationException.class);
      assertThat(m.distinguishes(g, h)).as(name).isFalse();
    }
  }
}
