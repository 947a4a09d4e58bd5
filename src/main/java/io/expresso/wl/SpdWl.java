package io.expresso.wl;

import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.function.BooleanSupplier;

/**
 * {@code spd-wl}: 1-WL on the complete graph whose arc (v,u) carries the shortest-path distance
 * from v to u as its colour; "unreachable" is a colour of its own.
 */
public final class SpdWl implements PairDistinguisher {

  /** Arc colour of an unreachable pair: never a distance between distinct vertices. */
  private static final int UNREACHABLE_COLOUR = 0;

  private final Hashing hashing;

  public SpdWl() {
    this(Hashing.DEFAULT);
  }

  SpdWl(Hashing hashing) {
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "spd-wl";
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    int n = g.n();
    int[] offsets = new int[2 * n + 1];
    int[] targets = new int[2 * n * Math.max(0, n - 1)];
    int[] arcColour = new int[targets.length];
    int a = 0;
    Graph[] graphs = {g, h};
    for (int part = 0; part < 2; part++) {
      int base = part * n;
      for (int v = 0; v < n; v++) {
        int[] dist = ShortestPaths.bfs(graphs[part], v);
        for (int u = 0; u < n; u++) {
          if (u != v) {
            targets[a] = base + u;
            arcColour[a] = dist[u] == ShortestPaths.UNREACHABLE ? UNREACHABLE_COLOUR : dist[u];
            a++;
          }
        }
        offsets[base + v + 1] = a;
      }
    }
    VertexRefinement r = new VertexRefinement(offsets, targets, arcColour, new int[2 * n], hashing);
    return r.refine((colour, classes) -> Histograms.differ(colour, classes, 0, n, n), cancelled);
  }
}
