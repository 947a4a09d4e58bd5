package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import java.util.Arrays;

/** Graph isomorphism tests by canonical certificates, with cheap invariants checked first. */
public final class Isomorphism {

  private Isomorphism() {}

  /** True iff {@code g} and {@code h} are isomorphic (as unlabelled graphs). */
  public static boolean isomorphic(Graph g, Graph h) {
    if (!sameDegrees(g, h)) {
      return false;
    }
    return Canonizer.certificate(g).equals(Canonizer.certificate(h));
  }

  /**
   * True iff there is an isomorphism from {@code g} to {@code h} preserving the chosen label
   * values (node labels, edge labels or both).
   */
  public static boolean isomorphic(LabeledGraph g, LabeledGraph h, boolean nodeLabels, boolean edgeLabels) {
    if (!sameDegrees(g.graph(), h.graph())) {
      return false;
    }
    return ColouredGraph.of(g, nodeLabels, edgeLabels).certificate()
        .equals(ColouredGraph.of(h, nodeLabels, edgeLabels).certificate());
  }

  /**
   * An isomorphism from {@code g} to {@code h} ({@code map[v]} is the image of g's vertex v), or
   * {@code null} when they are not isomorphic.
   */
  public static int[] isomorphism(Graph g, Graph h) {
    if (!sameDegrees(g, h)) {
      return null;
    }
    CanonicalLabeling cg = Canonizer.canonize(g);
    CanonicalLabeling ch = Canonizer.canonize(h);
    if (!cg.certificate().equals(ch.certificate())) {
      return null;
    }
    int[] vertexAt = new int[h.n()];
    for (int v = 0; v < h.n(); v++) {
      vertexAt[ch.position()[v]] = v;
    }
    int[] map = new int[g.n()];
    for (int v = 0; v < g.n(); v++) {
      map[v] = vertexAt[cg.position()[v]];
    }
    return map;
  }

  private static boolean sameDegrees(Graph g, Graph h) {
    if (g.n() != h.n() || g.m() != h.m()) {
      return false;
    }
    int[] a = new int[g.n()];
    int[] b = new int[h.n()];
    for (int v = 0; v < g.n(); v++) {
      a[v] = g.degree(v);
      b[v] = h.degree(v);
    }
    Arrays.sort(a);
    Arrays.sort(b);
    return Arrays.equals(a, b);
  }
}
