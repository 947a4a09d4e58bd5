package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LaplacianPeTest {

  /** The path 0-1-...-(n-1). */
  private static Graph path(int n) {
    int[] e = new int[2 * (n - 1)];
    for (int v = 0; v + 1 < n; v++) {
      e[2 * v] = v;
      e[2 * v + 1] = v + 1;
    }
    return Graph.fromEdges(n, e);
  }

  /** (I − D^{-1/2} A D^{-1/2}) x, computed from the definition. */
  private static double[] laplacianTimes(Graph g, double[] x) {
    double[] y = new double[g.n()];
    for (int u = 0; u < g.n(); u++) {
      y[u] = x[u];
      for (int w : g.neighbors(u)) {
        y[u] -= x[w] / Math.sqrt((double) g.degree(u) * g.degree(w));
      }
    }
    return y;
  }

  @Test
  void columnsAreUnitEigenvectorsOfTheNormalisedLaplacianInAscendingOrderWithoutTheTrivialOne() {
    Graph g = path(9);
    int k = 4;
    double[][] pe = LaplacianPe.of(g, k);
    double previous = 0;
    for (int j = 0; j < k; j++) {
      double[] x = new double[g.n()];
      for (int v = 0; v < g.n(); v++) {
        x[v] = pe[v][j];
      }
      double[] lx = laplacianTimes(g, x);
      double norm = 0;
      double lambda = 0;
      for (int v = 0; v < g.n(); v++) {
        norm += x[v] * x[v];
        lambda += x[v] * lx[v];
      }
      assertThat(norm).isCloseTo(1, within(1e-9));
      for (int v = 0; v < g.n(); v++) {
        assertThat(lx[v]).isCloseTo(lambda * x[v], within(1e-9));
      }
      // the trivial eigenvalue 0 (vector D^{1/2} 1) is skipped, the rest ascend
      assertThat(lambda).isGreaterThan(1e-6).isGreaterThanOrEqualTo(previous - 1e-12);
      previous = lambda;
      double dot = 0;
      for (int v = 0; v < g.n(); v++) {
        dot += x[v] * Math.sqrt(g.degree(v));
      }
      assertThat(dot).isCloseTo(0, within(1e-9));
    }
  }

  @Test
  void graphsWithFewerVerticesThanKPlusOneGetZeroColumns() {
    double[][] pe = LaplacianPe.of(Constructions.cycle(4), 6);
    for (double[] row : pe) {
      for (int j = 3; j < 6; j++) {
        assertThat(row[j]).isZero();
      }
      assertThat(row[0] * row[0] + row[1] * row[1] + row[2] * row[2]).isGreaterThan(0);
    }
  }

  @Test
  void signFlipsAreSeededAndBothSignsOccur() {
    io.expresso.count.SplitMix64 a = new io.expresso.count.SplitMix64(5);
    io.expresso.count.SplitMix64 b = new io.expresso.count.SplitMix64(5);
    float[] s = LaplacianPe.signs(64, a::nextLong);
    assertThat(s).containsExactly(LaplacianPe.signs(64, b::nextLong));
    assertThat(s).contains(1f, -1f).containsOnly(1f, -1f);
  }

  /** BREC's I²-GNN labels subgraph nodes by their distances only: a spec asking it for encodings is refused, naming the key. */
  @Test
  void i2gnnRefusesEncodingsNamingTheKey() {
    ModelSpec base = ModelSpec.defaults(Architecture.I2GNN);
    assertThatThrownBy(() -> new ModelSpec(Architecture.I2GNN, 2, 8, 4, Math.min(2, base.radius()), base.bnMomentum(), 6, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pe").hasMessageContaining("i2gnn");
  }

  /**
   * Positional encodings reach every architecture that takes them: with them, the 1-WL-equivalent
   * CSL graphs get different outputs, and the first layer is wider.
   */
  @ParameterizedTest
  @MethodSource("architecturesTakingPe")
  void everyModelSeesTheEncodings(Architecture a) {
    ModelSpec base = ModelSpec.defaults(a);
    // 3 layers: NGNN's 2 × 8 at this init is a dead network (every ReLU off, one output for every graph)
    ModelSpec small = new ModelSpec(a, 3, 8, 4, Math.min(2, base.radius()), base.bnMomentum());
    ModelSpec withPe = new ModelSpec(a, 3, 8, 4, Math.min(2, base.radius()), base.bnMomentum(), 6, 0);
    Graph g2 = Constructions.csl(17, 2);
    Graph g3 = Constructions.csl(17, 3);
    try (GraphModel plain = GraphModel.create(small, Head.EMBEDDING, Device.cpu(), 1);
        GraphModel pe = GraphModel.create(withPe, Head.EMBEDDING, Device.cpu(), 1)) {
      float[][] p = plain.embed(List.of(g2, g3));
      float[][] e = pe.embed(List.of(g2, g3));
      if (a == Architecture.GIN) {
        assertThat(p[0]).containsExactly(p[1]); // 1-WL cannot tell 4-regular graphs apart
      }
      assertThat(maxDifference(e[0], e[1])).isGreaterThan(1e-4);
      assertThat(pe.parameterCount()).isGreaterThan(plain.parameterCount()); // a wider first layer
    }
  }

  private static double maxDifference(float[] x, float[] y) {
    double d = 0;
    for (int i = 0; i < x.length; i++) {
      d = Math.max(d, Math.abs(x[i] - y[i]));
    }
    return d;
  }

  static java.util.stream.Stream<Architecture> architecturesTakingPe() {
    return java.util.Arrays.stream(Architecture.values()).filter(a -> a.keys().contains("pe"));
  }
}
