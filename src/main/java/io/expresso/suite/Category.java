package io.expresso.suite;

import java.util.List;

/** A named category of pairs, such as BREC's "Basic" or "CFI". */
public record Category(String name, List<GraphPair> pairs) {

  public Category {
    pairs = List.copyOf(pairs);
  }
}
