package io.expresso.model;

import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.ArrayList;
import java.util.List;

/**
 * KP-GNN's K-hop view of a graph (Feng et al. 2022, shortest-path kernel): for every vertex v and
 * hop k = 1..K, the vertices at distance exactly k, and numbers describing the peripheral subgraph
 * they induce — as KP-GNN's {@code extract_peripheral_attr_v2}: its size, its edge count, and its
 * configuration (ordered vertex pairs at internal distance 1..{@value #CONFIGURATION_HOPS}, and
 * for each of its vertices j the edges among the vertices at each such distance from j).
 *
 * @param hop {@code hop[v][k-1]}: the vertices at distance k from v
 * @param features {@code features[v][k-1]}: {@link #FEATURES} numbers of hop k's peripheral subgraph
 */
record PeripheralSubgraphs(int[][][] hop, float[][][] features) {

  /** KP-GNN's {@code max_hop_num}: internal distances the configuration counts. */
  static final int CONFIGURATION_HOPS = 4;

  /** size, edges (ordered), configuration edges, pairs at internal distance 1..4. */
  static final int FEATURES = 3 + CONFIGURATION_HOPS;

  static PeripheralSubgraphs of(Graph g, int hops) {
    int n = g.n();
    int[][] dist = ShortestPaths.allPairs(g);
    int[][][] hop = new int[n][hops][];
    float[][][] features = new float[n][hops][];
    for (int v = 0; v < n; v++) {
      for (int k = 1; k <= hops; k++) {
        List<Integer> ring = new ArrayList<>();
        for (int u = 0; u < n; u++) {
          if (dist[v][u] == k) {
            ring.add(u);
          }
        }
        int[] members = ring.stream().mapToInt(Integer::intValue).toArray();
        hop[v][k - 1] = members;
        features[v][k - 1] = describe(g.induced(members));
      }
    }
    return new PeripheralSubgraphs(hop, features);
  }

  private static float[] describe(Graph p) {
    float[] f = new float[FEATURES];
    f[0] = p.n();
    f[1] = 2f * p.m();
    int[][] d = ShortestPaths.allPairs(p);
    long configurationEdges = 0;
    for (int j = 0; j < p.n(); j++) {
      for (int u = 0; u < p.n(); u++) {
        int h = d[j][u];
        if (u != j && h >= 1 && h <= CONFIGURATION_HOPS) {
          f[2 + h]++;
          // edges between u and the later vertices at the same distance h from j, both directions
          for (int w = u + 1; w < p.n(); w++) {
            if (d[j][w] == h && p.adjacent(u, w)) {
              configurationEdges += 2;
            }
          }
        }
      }
    }
    f[2] = configurationEdges;
    return f;
  }
}
