package io.expresso.iso;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The clean version of a dataset (Ivanov et al., Section 7): one graph per orbit whose graphs all
 * carry the same target label (the orbit's first graph), and no graph from an orbit whose labels
 * conflict.
 */
public final class CleanDataset {

  private static final Object NO_LABEL = new Object();

  private CleanDataset() {}

  /** The indices of the graphs to keep, ascending. */
  public static int[] keep(Orbits orbits, List<?> labels) {
    List<Integer> kept = new ArrayList<>();
    for (int[] orbit : orbits.all()) {
      Set<Object> distinct = new HashSet<>();
      for (int i : orbit) {
        distinct.add(labels.get(i) == null ? NO_LABEL : labels.get(i));
      }
      if (distinct.size() == 1) {
        kept.add(orbit[0]);
      }
    }
    return kept.stream().mapToInt(Integer::intValue).sorted().toArray();
  }
}
