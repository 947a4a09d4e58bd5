package io.expresso.iso;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The isomorphism-bias metrics of a dataset (Ivanov et al., Section 4).
 *
 * @param graphs number of graphs N
 * @param orbits number of non-trivial orbits (orbits of two or more isomorphic graphs)
 * @param isomorphicGraphs graphs that lie in a non-trivial orbit
 * @param isomorphicPairs unordered pairs {i, j}, i &lt; j, with G_i ≅ G_j: the sum of s(s-1)/2
 *     over orbit sizes s
 * @param mismatchedGraphs graphs in an orbit that carries more than one target label
 * @param orbitSizes orbit size to number of non-trivial orbits of that size
 * @param orbitMembers the non-trivial orbits as ascending 0-based graph indices
 */
public record AuditReport(int graphs, int orbits, int isomorphicGraphs, long isomorphicPairs,
    int mismatchedGraphs, SortedMap<Integer, Integer> orbitSizes, List<int[]> orbitMembers) {

  /** The metrics of the given orbits; {@code labels} holds each graph's target label (null if none). */
  public static AuditReport of(Orbits orbits, List<?> labels) {
    if (labels.size() != orbits.graphs()) {
      throw new IllegalArgumentException(labels.size() + " labels for " + orbits.graphs() + " graphs");
    }
    int isoGraphs = 0;
    long pairs = 0;
    int mismatched = 0;
    SortedMap<Integer, Integer> sizes = new TreeMap<>();
    List<int[]> members = new ArrayList<>();
    for (int[] orbit : orbits.nonTrivial()) {
      int s = orbit.length;
      isoGraphs += s;
      pairs += (long) s * (s - 1) / 2;
      sizes.merge(s, 1, Integer::sum);
      members.add(orbit);
      Set<Object> distinct = new HashSet<>();
      for (int i : orbit) {
        distinct.add(labels.get(i) == null ? NO_LABEL : labels.get(i));
      }
      if (distinct.size() > 1) {
        mismatched += s;
      }
    }
    return new AuditReport(orbits.graphs(), members.size(), isoGraphs, pairs, mismatched, sizes, members);
  }

  private static final Object NO_LABEL = new Object();

  /** Share of graphs in non-trivial orbits, in percent. */
  public double isomorphicGraphPct() {
    return pct(isomorphicGraphs, graphs);
  }

  /** Isomorphic pairs over all N(N-1)/2 pairs, in percent. */
  public double isomorphicPairPct() {
    return pct(isomorphicPairs, (long) graphs * (graphs - 1) / 2);
  }

  /** Share of graphs in orbits with conflicting target labels, in percent. */
  public double mismatchedPct() {
    return pct(mismatchedGraphs, graphs);
  }

  /** 100·part/whole rounded half-up to 2 decimals; 0 when whole is 0. */
  static double pct(long part, long whole) {
    if (whole == 0) {
      return 0.0;
    }
    return BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
        .divide(BigDecimal.valueOf(whole), 2, RoundingMode.HALF_UP).doubleValue();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AuditReport r && r.graphs == graphs && r.orbits == orbits
        && r.isomorphicGraphs == isomorphicGraphs && r.isomorphicPairs == isomorphicPairs
        && r.mismatchedGraphs == mismatchedGraphs && r.orbitSizes.equals(orbitSizes)
        && r.orbitMembers.size() == orbitMembers.size()
        && java.util.stream.IntStream.range(0, orbitMembers.size())
            .allMatch(i -> java.util.Arrays.equals(r.orbitMembers.get(i), orbitMembers.get(i)));
  }

  @Override
  public int hashCode() {
    return Objects.hash(graphs, orbits, isomorphicGraphs, isomorphicPairs, mismatchedGraphs, orbitSizes);
  }
}
