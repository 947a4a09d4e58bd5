package io.expresso.suite;

import io.expresso.graph.Graph;
import java.util.List;

/**
 * Relabelings shipped with a pair, as in BREC's file layout.
 *
 * @param first q relabelings of G (the even entries of the pair's major block)
 * @param second q relabelings of H (the odd entries of the major block)
 * @param reliabilityFirst q relabelings of one graph of the pair (even entries of the
 *     reliability block)
 * @param reliabilitySecond q more relabelings of that same graph (odd entries of the block)
 */
public record Relabelings(
    List<Graph> first, List<Graph> second, List<Graph> reliabilityFirst, List<Graph> reliabilitySecond) {

  public Relabelings {
    first = List.copyOf(first);
    second = List.copyOf(second);
    reliabilityFirst = List.copyOf(reliabilityFirst);
    reliabilitySecond = List.copyOf(reliabilitySecond);
  }

  /** q, the number of relabelings per graph. */
  public int q() {
    return first.size();
  }
}
