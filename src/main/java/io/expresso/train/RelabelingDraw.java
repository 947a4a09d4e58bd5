package io.expresso.train;

import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Relabelings;
import java.util.ArrayList;
import java.util.List;

/**
 * Random relabelings for pairs whose suite ships none: q uniform permutations per graph drawn from
 * the seed (SplitMix64 + Fisher–Yates, identical on every JVM). The reliability block is 2q
 * relabelings of G split into halves, as BREC's file layout does.
 */
public final class RelabelingDraw {

  private RelabelingDraw() {}

  /** The pair's own relabelings if it has them (with q matching), else q drawn from the seed. */
  public static Relabelings forPair(GraphPair pair, int q, long seed) {
    Relabelings given = pair.relabelings();
    if (given != null) {
      if (given.q() != q) {
        throw new IllegalArgumentException("pair " + pair.index() + " ships " + given.q()
            + " relabelings per graph but q = " + q + " was asked for");
      }
      return given;
    }
    SplitMix64 rng = new SplitMix64(seed ^ 0x5EEDL * (pair.index() + 1));
    return new Relabelings(
        relabel(pair.first(), q, rng), relabel(pair.second(), q, rng),
        relabel(pair.first(), q, rng), relabel(pair.first(), q, rng));
  }

  /** {@code count} uniformly random relabelings of {@code g}. */
  public static List<Graph> relabel(Graph g, int count, SplitMix64 rng) {
    List<Graph> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(g.relabel(rng.permutation(g.n())));
    }
    return out;
  }

  /** G₁, H₁, G₂, H₂, …: the order BREC's major block (and its batches) use. */
  public static List<Graph> interleave(List<Graph> a, List<Graph> b) {
    if (a.size() != b.size()) {
      throw new IllegalArgumentException("cannot pair " + a.size() + " relabelings with " + b.size());
    }
    List<Graph> out = new ArrayList<>(2 * a.size());
    for (int i = 0; i < a.size(); i++) {
      out.add(a.get(i));
      out.add(b.get(i));
    }
    return out;
  }
}
