package io.expresso.graph;

/** Structural properties used to describe graphs (e.g. by {@code expresso graph info}). */
public final class GraphProperties {

  private GraphProperties() {}

  /**
   * The parameters {@code {n, k, λ, μ}} if {@code g} is strongly regular — k-regular, every two
   * adjacent vertices have λ common neighbours and every two non-adjacent distinct vertices μ —
   * and neither complete nor empty; {@code null} otherwise.
   */
  public static int[] stronglyRegularParameters(Graph g) {
    int n = g.n();
    if (n < 3 || !g.isRegular() || g.m() == 0 || g.m() == (long) n * (n - 1) / 2) {
      return null;
    }
    int lambda = -1;
    int mu = -1;
    long[] rows = g.bitRows();
    int w = g.words();
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        int common = 0;
        for (int i = 0; i < w; i++) {
          common += Long.bitCount(rows[u * w + i] & rows[v * w + i]);
        }
        if (g.adjacent(u, v)) {
          if (lambda < 0) {
            lambda = common;
          } else if (lambda != common) {
            return null;
          }
        } else {
          if (mu < 0) {
            mu = common;
          } else if (mu != common) {
            return null;
          }
        }
      }
    }
    return new int[] {n, g.minDegree(), lambda, mu};
  }
}
