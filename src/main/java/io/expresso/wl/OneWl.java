package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.function.BooleanSupplier;

/** {@code 1-wl}: classical colour refinement from the uniform colouring. */
public final class OneWl implements PairDistinguisher {

  private final Hashing hashing;

  public OneWl() {
    this(Hashing.DEFAULT);
  }

  OneWl(Hashing hashing) {
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "1-wl";
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    return VertexRefinement.distinguishes(g, h, new int[g.n()], new int[h.n()], hashing, cancelled);
  }
}
