package io.expresso.wl;

import io.expresso.graph.EgoNet;
import io.expresso.graph.Graph;
import io.expresso.iso.Canonizer;
import io.expresso.iso.Certificate;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * {@code n1}, {@code n2}: each vertex starts with the isomorphism class of its induced k-hop
 * ego-net rooted at it (exact: the canonical form of {@link Canonizer} with the root as its own colour), then 1-WL. Classes of both graphs
 * are named in one shared dictionary.
 */
public final class EgoNetWl implements PairDistinguisher {

  private final int radius;
  private final Hashing hashing;

  public EgoNetWl(int radius) {
    this(radius, Hashing.DEFAULT);
  }

  EgoNetWl(int radius, Hashing hashing) {
    if (radius < 1) {
      throw new IllegalArgumentException("ego-net radius must be at least 1, not " + radius);
    }
    this.radius = radius;
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "n" + radius;
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    Map<Certificate, Integer> palette = new HashMap<>();
    return VertexRefinement.distinguishes(g, h, initial(g, palette, cancelled), initial(h, palette, cancelled), hashing,
        cancelled);
  }

  private int[] initial(Graph g, Map<Certificate, Integer> palette, BooleanSupplier cancelled) {
    int[] colour = new int[g.n()];
    for (int v = 0; v < g.n(); v++) {
      // A canonical form of a dense ego-net can take long: check per vertex, not only per round.
      if (cancelled.getAsBoolean()) {
        throw new CancellationException(name() + " cancelled while classifying ego-nets, at vertex " + v + " of " + g.n());
      }
      EgoNet ego = EgoNet.of(g, v, radius);
      Certificate c = rootedCertificate(ego.graph(), ego.root());
      colour[v] = palette.computeIfAbsent(c, x -> palette.size());
    }
    return colour;
  }

  /**
   * The certificate of {@code g} rooted at {@code root}: equal for two rooted graphs exactly when
   * an isomorphism maps one onto the other and root onto root (the root is the one vertex of its
   * colour for {@link Canonizer}).
   */
  static Certificate rootedCertificate(Graph g, int root) {
    long[] colours = new long[g.n()];
    java.util.Arrays.fill(colours, 1);
    colours[root] = 0;
    return Canonizer.certificate(g, colours);
  }
}
