package io.expresso.suite;

import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * BREC's recipe ({@code customize/dataset_v3.py}) for a dataset file: for each pair, q relabelings
 * of each graph interleaved G₀, H₀, G₁, H₁, … (the major blocks of all pairs), then for each pair
 * 2q relabelings of one of its graphs picked by a coin flip (the reliability blocks). As in BREC,
 * the first relabeling of every block is the graph as given and the relabelings within a block
 * are distinct labelled graphs.
 *
 * <p>Each raw pair draws from its own SplitMix64 stream, derived from the seed and the pair's raw
 * file and row: a seed gives the same relabelings on every JVM, and a pair the same relabelings in
 * every variant that keeps it.
 */
public final class BrecBuilder {

  /** BREC's own scripts seed everything with 2022. */
  public static final long DEFAULT_SEED = 2022;

  /** Draws allowed per wanted relabeling before a graph is declared too symmetric for q. */
  private static final int DRAWS_PER_RELABELING = 1000;

  private BrecBuilder() {}

  /** The entries of the BREC file holding {@code pairs} (in that order), in layout order. */
  public static List<Graph> entries(List<BrecRaw.RawPair> pairs, int q, long seed) {
    if (q < 1) {
      throw new IllegalArgumentException("q must be at least 1, got " + q);
    }
    List<Graph> major = new ArrayList<>(pairs.size() * 2 * q);
    List<Graph> reliability = new ArrayList<>(pairs.size() * 2 * q);
    for (BrecRaw.RawPair p : pairs) {
      SplitMix64 rng = streamFor(p, seed);
      List<Graph> g = distinctRelabelings(p.first(), q, rng, p, "G");
      List<Graph> h = distinctRelabelings(p.second(), q, rng, p, "H");
      for (int i = 0; i < q; i++) {
        major.add(g.get(i));
        major.add(h.get(i));
      }
      boolean second = rng.nextInt(2) == 1;
      reliability.addAll(distinctRelabelings(second ? p.second() : p.first(), 2 * q, rng, p, second ? "H" : "G"));
    }
    major.addAll(reliability);
    return major;
  }

  /** The pair's own stream: the seed mixed with the raw file's position and the row. */
  static SplitMix64 streamFor(BrecRaw.RawPair p, long seed) {
    long source = (long) BrecVariant.RAW_FILES.indexOf(p.file()) << 32 | p.row();
    return new SplitMix64(new SplitMix64(seed ^ (source + 1) * 0xD1342543DE82EF95L).nextLong());
  }

  /** {@code count} distinct relabelings of {@code g}, the first being {@code g} itself. */
  private static List<Graph> distinctRelabelings(Graph g, int count, SplitMix64 rng, BrecRaw.RawPair p, String which) {
    List<Graph> out = new ArrayList<>(count);
    Set<Graph> seen = new HashSet<>();
    out.add(g);
    seen.add(g);
    long draws = 0;
    long maxDraws = (long) DRAWS_PER_RELABELING * count;
    while (out.size() < count) {
      if (++draws > maxDraws) {
        throw new IllegalArgumentException(p.file() + " pair " + p.row() + " (" + which + "): only " + out.size()
            + " distinct relabelings after " + maxDraws + " draws; the graph has too few labellings for "
            + count + " distinct ones");
      }
      Graph r = g.relabel(rng.permutation(g.n()));
      if (seen.add(r)) {
        out.add(r);
      }
    }
    return out;
  }
}
