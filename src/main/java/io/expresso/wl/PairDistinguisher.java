package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * An exact, deterministic non-GNN test that either tells two graphs apart or not. Isomorphic
 * graphs are never distinguished; a method at least as strong as another distinguishes every pair
 * the other does.
 */
public interface PairDistinguisher {

  /** The method's command-line name, e.g. {@code 1-wl}. */
  String name();

  /** True if the method separates {@code g} and {@code h}. */
  default boolean distinguishes(Graph g, Graph h) {
    return distinguishes(g, h, () -> false);
  }

  /**
   * As {@link #distinguishes(Graph, Graph)}, checking {@code cancelled} between refinement rounds
   * (big graphs under k-WL can refine for long).
   *
   * @throws CancellationException once {@code cancelled} is true
   */
  boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled);
}
