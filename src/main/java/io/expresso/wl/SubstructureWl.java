package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code s3}, {@code s4}: each vertex starts with its counts of every connected induced k-vertex
 * graph (up to isomorphism) that contains it, then 1-WL. The count vectors of both graphs are
 * named in one shared dictionary.
 */
public final class SubstructureWl implements PairDistinguisher {

  private final int k;
  private final Hashing hashing;

  public SubstructureWl(int k) {
    this(k, Hashing.DEFAULT);
  }

  SubstructureWl(int k, Hashing hashing) {
    ConnectedSubgraphCounts.classCount(k); // validates k
    this.k = k;
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "s" + k;
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    Map<List<Integer>, Integer> palette = new HashMap<>();
    return VertexRefinement.distinguishes(g, h, initial(g, palette), initial(h, palette), hashing, cancelled);
  }

  private int[] initial(Graph g, Map<List<Integer>, Integer> palette) {
    int[][] counts = ConnectedSubgraphCounts.of(g, k);
    int[] colour = new int[g.n()];
    for (int v = 0; v < g.n(); v++) {
      List<Integer> key = Arrays.stream(counts[v]).boxed().toList();
      colour[v] = palette.computeIfAbsent(key, x -> palette.size());
    }
    return colour;
  }
}
