package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** No method ever distinguishes a graph from a random relabelling of itself. */
class IsomorphismInvarianceProperties {

  @Property(tries = 60)
  void noMethodDistinguishesIsomorphicGraphs(
      @ForAll @IntRange(min = 1, max = 11) int n,
      @ForAll @IntRange(min = 0, max = 100) int percent,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    Graph g = TestGraphs.random(rnd, n, percent / 100.0);
    Graph h = g.relabel(TestGraphs.permutation(rnd, n));
    for (String m : WlMethods.names()) {
      assertThat(WlMethods.byName(m).distinguishes(g, h)).as("%s on %s vs %s", m, g, h).isFalse();
    }
  }

  @Property(tries = 15)
  void noMethodDistinguishesRelabelledRegularGraphs(
      @ForAll @IntRange(min = 5, max = 9) int half, @ForAll long seed) {
    // Regular graphs are where refinement does least work on its own: the stable partition of
    // a vertex-transitive-looking graph is reached after the full exact checks.
    Random rnd = new Random(seed);
    int n = 2 * half;
    Graph g = TestGraphs.randomRegular(rnd, n, 3);
    Graph h = g.relabel(TestGraphs.permutation(rnd, n));
    for (String m : WlMethods.names()) {
      assertThat(WlMethods.byName(m).distinguishes(g, h)).as("%s on %s vs %s", m, g, h).isFalse();
    }
  }
}
