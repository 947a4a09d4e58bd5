package io.expresso.iso;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The orbits of a list of coloured graphs: classes of graphs isomorphic to each other
 * (Ivanov et al., Definition 4.1). Graphs are first bucketed by cheap invariants (n, m, degree
 * sequence, colour multiset, 1-WL hash); certificates are computed only inside buckets holding
 * more than one graph, and they alone decide the classes.
 */
public final class Orbits {

  private final int[] orbitOf;
  private final List<int[]> orbits;

  private Orbits(int[] orbitOf, List<int[]> orbits) {
    this.orbitOf = orbitOf;
    this.orbits = orbits;
  }

  /** The orbits of {@code graphs}. */
  public static Orbits of(List<ColouredGraph> graphs) {
    Map<InvariantKey, List<Integer>> buckets = new HashMap<>();
    for (int i = 0; i < graphs.size(); i++) {
      buckets.computeIfAbsent(InvariantKey.of(graphs.get(i)), k -> new ArrayList<>()).add(i);
    }
    int[] firstOf = new int[graphs.size()]; // the smallest index of each graph's orbit
    for (List<Integer> bucket : buckets.values()) {
      if (bucket.size() == 1) {
        firstOf[bucket.get(0)] = bucket.get(0);
        continue;
      }
      Map<Certificate, Integer> first = new HashMap<>();
      for (int i : bucket) { // ascending indices
        firstOf[i] = first.computeIfAbsent(graphs.get(i).certificate(), c -> i);
      }
    }
    int[] orbitOf = new int[graphs.size()];
    int[] idOfFirst = new int[graphs.size()];
    Arrays.fill(idOfFirst, -1);
    List<List<Integer>> members = new ArrayList<>();
    for (int i = 0; i < graphs.size(); i++) {
      int f = firstOf[i];
      if (idOfFirst[f] < 0) {
        idOfFirst[f] = members.size();
        members.add(new ArrayList<>());
      }
      orbitOf[i] = idOfFirst[f];
      members.get(orbitOf[i]).add(i);
    }
    List<int[]> orbits = members.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toList();
    return new Orbits(orbitOf, orbits);
  }

  /** Number of graphs. */
  public int graphs() {
    return orbitOf.length;
  }

  /** The orbit id of graph {@code i} (0-based); orbits are numbered by their first graph. */
  public int orbitOf(int i) {
    return orbitOf[i];
  }

  /** A copy of the orbit id of every graph. */
  public int[] orbitIds() {
    return orbitOf.clone();
  }

  /** All orbits, trivial ones included, each as ascending 0-based graph indices, ordered by first graph. */
  public List<int[]> all() {
    return orbits.stream().map(int[]::clone).toList();
  }

  /** The orbits with more than one graph. */
  public List<int[]> nonTrivial() {
    return orbits.stream().filter(o -> o.length > 1).map(int[]::clone).toList();
  }

  /** Cheap isomorphism invariants used only to avoid certificate computations. */
  private record InvariantKey(int n, int m, int[] degrees, long[] colours, long wl) {

    static InvariantKey of(ColouredGraph cg) {
      int n = cg.graph().n();
      int[] degrees = new int[n];
      for (int v = 0; v < n; v++) {
        degrees[v] = cg.graph().degree(v);
      }
      Arrays.sort(degrees);
      long[] colours = cg.colours().clone();
      Arrays.sort(colours);
      long wl = n == 0 ? 0 : new Refiner(cg.graph()).refineAll(Partition.byColour(cg.colours()));
      return new InvariantKey(n, cg.graph().m(), degrees, colours, wl);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof InvariantKey k && k.n == n && k.m == m && k.wl == wl
          && Arrays.equals(k.degrees, degrees) && Arrays.equals(k.colours, colours);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(wl) * 31 + Arrays.hashCode(degrees);
    }
  }
}
