package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.function.BooleanSupplier;

/**
 * {@code m1}: node marking. For every vertex v, 1-WL on the graph with v marked (a colour of its
 * own); the graphs are distinguished when the multisets, over v, of these stable histograms
 * differ. All 2n marked copies are refined as one disjoint union, so every histogram is in one
 * palette.
 */
public final class NodeMarkingWl implements PairDistinguisher {

  private final Hashing hashing;

  public NodeMarkingWl() {
    this(Hashing.DEFAULT);
  }

  NodeMarkingWl(Hashing hashing) {
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "m1";
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    int n = g.n();
    Graph[] copies = new Graph[2 * n];
    int[] initial = new int[Math.multiplyExact(2 * n, n)];
    for (int v = 0; v < n; v++) {
      copies[v] = g;
      copies[n + v] = h;
      initial[v * n + v] = 1;
      initial[(n + v) * n + v] = 1;
    }
    VertexRefinement r = VertexRefinement.union(copies, initial, hashing);
    return r.refine((colour, classes) -> Histograms.multisetsDiffer(colour, n, n), cancelled);
  }
}
