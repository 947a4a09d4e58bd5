package io.expresso.count;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class FlipCounterTest {

  private static final List<FlipCounter> COUNTERS = List.of(new DeltaFlipCounter(), new EgoNetFlipCounter());

  @Provide
  Arbitrary<Graph> graphs() {
    return RandomGraphArbitraries.graphs(2, 12);
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  @Property(tries = 60)
  void everySingleFlipMatchesAFullRecount(@ForAll("graphs") Graph g) {
    MutableGraph work = MutableGraph.of(g);
    for (Pattern p : Pattern.values()) {
      long before = InducedCounts.count(g, p);
      for (int i = 0; i < g.n(); i++) {
        for (int j = 0; j < g.n(); j++) {
          if (i == j) {
            continue;
          }
          long expected = InducedCounts.count(g.flip(i, j), p);
          for (FlipCounter c : COUNTERS) {
            assertThat(c.countAfterFlip(work, p, before, i, j))
                .as("%s, %s of {%d,%d} (%s) in %s", c.getClass().getSimpleName(), p,
                    i, j, g.adjacent(i, j) ? "deletion" : "addition", g)
                .isEqualTo(expected);
          }
        }
      }
    }
    assertThat(work.toGraph()).as("counters leave the graph unchanged").isEqualTo(g);
  }

  @Property(tries = 40)
  void chainsOfFlipsStayExact(@ForAll("graphs") Graph g, @ForAll("seeds") long seed) {
    SplitMix64 rnd = new SplitMix64(seed);
    for (Pattern p : Pattern.values()) {
      MutableGraph work = MutableGraph.of(g);
      long delta = InducedCounts.count(g, p);
      long ego = delta;
      for (int step = 0; step < 25; step++) {
        int i = rnd.nextInt(g.n());
        int j = rnd.nextInt(g.n() - 1);
        j = j >= i ? j + 1 : j;
        delta = COUNTERS.get(0).countAfterFlip(work, p, delta, i, j);
        ego = COUNTERS.get(1).countAfterFlip(work, p, ego, i, j);
        work.flip(i, j);
        long exact = BruteForce.count(work.toGraph(), p);
        assertThat(delta).as("delta %s after step %d", p, step).isEqualTo(exact);
        assertThat(ego).as("ego-net %s after step %d", p, step).isEqualTo(exact);
      }
    }
  }

  @Property(tries = 60)
  void copiesThroughAPairMatchBruteForce(@ForAll("graphs") Graph g, @ForAll("seeds") long seed) {
    SplitMix64 rnd = new SplitMix64(seed);
    int i = rnd.nextInt(g.n());
    int j = (i + 1 + rnd.nextInt(g.n() - 1)) % g.n();
    Graph with = g.adjacent(i, j) ? g : g.flip(i, j);
    Graph without = g.adjacent(i, j) ? g.flip(i, j) : g;
    DeltaFlipCounter delta = new DeltaFlipCounter();
    MutableGraph work = MutableGraph.of(g);
    for (Pattern p : Pattern.values()) {
      assertThat(delta.copiesThrough(work, p, i, j, true)).isEqualTo(through(with, p, i, j));
      assertThat(delta.copiesThrough(work, p, i, j, false)).isEqualTo(through(without, p, i, j));
    }
  }

  private static long through(Graph g, Pattern p, int i, int j) {
    return BruteForce.copies(g, p).stream().filter(c -> c.contains(i) && c.contains(j)).count();
  }

  @Test
  void flipsAtAndAcrossTheBitsetWordBoundary() {
    for (int n : new int[] {64, 65, 130}) {
      Graph g = RandomGraphs.erdosRenyi(n, 6.0 / n, n);
      MutableGraph work = MutableGraph.of(g);
      SplitMix64 rnd = new SplitMix64(n);
      for (Pattern p : Pattern.values()) {
        long before = InducedCounts.count(g, p);
        for (int t = 0; t < 10; t++) {
          int i = t == 0 ? n - 1 : rnd.nextInt(n); // the last vertex sits on the word's top bit for n = 64
          int j = (i + 1 + rnd.nextInt(n - 1)) % n;
          long expected = InducedCounts.count(g.flip(i, j), p);
          for (FlipCounter c : COUNTERS) {
            assertThat(c.countAfterFlip(work, p, before, i, j)).as("n=%d %s %s {%d,%d}", n, c, p, i, j)
                .isEqualTo(expected);
          }
        }
      }
    }
  }

  @Test
  void invalidPairsAreRejectedByName() {
    MutableGraph work = MutableGraph.of(RandomGraphs.erdosRenyi(5, 0.5, 1));
    for (FlipCounter c : COUNTERS) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.countAfterFlip(work, Pattern.TRIANGLE, 0, 2, 2))
          .hasMessage("cannot flip {2, 2} in a graph on 5 vertices");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.countAfterFlip(work, Pattern.TRIANGLE, 0, 1, 5))
          .hasMessage("cannot flip {1, 5} in a graph on 5 vertices");
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> work.flip(-1, 3))
        .hasMessage("cannot flip {-1, 3} in a graph on 5 vertices");
  }

  @Test
  void mutableGraphRoundTripsAndTracksDegrees() {
    Graph g = RandomGraphs.paperSbm(5);
    MutableGraph work = MutableGraph.of(g);
    assertThat(work.toGraph()).isEqualTo(g);
    boolean had = work.adjacent(3, 17);
    int d3 = work.degree(3);
    work.flip(3, 17);
    assertThat(work.adjacent(17, 3)).isEqualTo(!had);
    assertThat(work.degree(3)).isEqualTo(d3 + (had ? -1 : 1));
    assertThat(work.m()).isEqualTo(g.m() + (had ? -1 : 1));
    assertThat(work.toGraph()).isEqualTo(g.flip(3, 17));
  }
}
