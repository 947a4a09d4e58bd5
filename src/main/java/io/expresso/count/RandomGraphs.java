package io.expresso.count;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;

/**
 * Seeded random graphs for counting datasets: Erdős–Rényi G(n, p) and stochastic block models.
 * Pairs {u, v}, u &lt; v, are visited in lexicographic order and each draws one
 * {@link SplitMix64#nextDouble()}, so a seed fixes the graph on every JVM.
 */
public final class RandomGraphs {

  private RandomGraphs() {}

  /** G(n, p): every pair is an edge independently with probability p. */
  public static Graph erdosRenyi(int n, double p, long seed) {
    checkProbability(p, "p");
    if (n < 0) {
      throw new IllegalArgumentException("negative vertex count " + n);
    }
    SplitMix64 rnd = new SplitMix64(seed);
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        if (rnd.nextDouble() < p) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /**
   * A stochastic block model: blocks of the given sizes on consecutive vertices; a pair inside
   * block c is an edge with probability pIn[c], a pair across blocks with probability pOut.
   */
  public static Graph stochasticBlockModel(int[] sizes, double[] pIn, double pOut, long seed) {
    if (sizes.length != pIn.length) {
      throw new IllegalArgumentException(sizes.length + " block sizes but " + pIn.length + " within-block probabilities");
    }
    checkProbability(pOut, "pOut");
    int n = 0;
    for (int c = 0; c < sizes.length; c++) {
      if (sizes[c] < 0) {
        throw new IllegalArgumentException("block " + c + " has negative size " + sizes[c]);
      }
      checkProbability(pIn[c], "pIn[" + c + "]");
      n += sizes[c];
    }
    int[] block = new int[n];
    for (int c = 0, v = 0; c < sizes.length; c++) {
      for (int s = 0; s < sizes[c]; s++) {
        block[v++] = c;
      }
    }
    SplitMix64 rnd = new SplitMix64(seed);
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        double p = block[u] == block[v] ? pIn[block[u]] : pOut;
        if (rnd.nextDouble() < p) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  /**
   * The SBM of Campi et al. §6: 30 nodes in three communities of 10, p_in 0.2 / 0.3 / 0.4,
   * p_out 0.1.
   */
  public static Graph paperSbm(long seed) {
    return stochasticBlockModel(new int[] {10, 10, 10}, new double[] {0.2, 0.3, 0.4}, 0.1, seed);
  }

  private static void checkProbability(double p, String name) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException(name + " = " + p + " is not a probability in [0, 1]");
    }
  }
}
