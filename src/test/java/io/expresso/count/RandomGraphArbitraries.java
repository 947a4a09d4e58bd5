package io.expresso.count;

import io.expresso.graph.Graph;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators of small random graphs of every density (including empty and complete). */
public final class RandomGraphArbitraries {

  private RandomGraphArbitraries() {}

  public static Arbitrary<Graph> graphs(int minN, int maxN) {
    return Combinators.combine(
            Arbitraries.integers().between(minN, maxN),
            Arbitraries.doubles().between(0, 1),
            Arbitraries.longs())
        .as(RandomGraphs::erdosRenyi);
  }
}
