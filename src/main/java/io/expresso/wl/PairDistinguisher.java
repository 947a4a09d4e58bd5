package io.expresso.wl;

import io.expresso.graph.Graph;

/**
 * An exact, deterministic non-GNN test that either tells two graphs apart or not. Isomorphic
 * graphs are never distinguished; a method at least as strong as another distinguishes every pair
 * the other does.
 */
public interface PairDistinguisher {

  /** The method's command-line name, e.g. {@code 1-wl}. */
  String name();

  /** True if the method separates {@code g} and {@code h}. */
  boolean distinguishes(Graph g, Graph h);
}
