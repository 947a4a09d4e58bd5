package io.expresso.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.Stream;

/**
 * An expressiveness suite: named categories of graph pairs, in a fixed order.
 *
 * @param id the spec the suite was loaded from, e.g. {@code brec:data/brec_v3.npy} or {@code builtin}
 * @param categories the categories in suite order (empty categories are dropped)
 */
public record Suite(String id, List<Category> categories) {

  public Suite {
    categories = List.copyOf(categories);
  }

  /** Every pair, in suite order. */
  public Stream<GraphPair> pairs() {
    return categories.stream().flatMap(c -> c.pairs().stream());
  }

  public int size() {
    return categories.stream().mapToInt(c -> c.pairs().size()).sum();
  }

  /** The suite restricted to pairs whose index lies in {@code [from, to]} (inclusive). */
  public Suite restrict(int from, int to) {
    return restrict(i -> i >= from && i <= to);
  }

  /** The pairs whose index {@code keep} accepts, categories that keep none dropped. */
  public Suite restrict(IntPredicate keep) {
    List<Category> kept = new ArrayList<>();
    for (Category c : categories) {
      List<GraphPair> ps = c.pairs().stream().filter(p -> keep.test(p.index())).toList();
      if (!ps.isEmpty()) {
        kept.add(new Category(c.name(), ps));
      }
    }
    return new Suite(id, kept);
  }
}
