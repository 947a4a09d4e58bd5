package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** ESU enumeration against brute force over all k-subsets, classified by degree sequence. */
class ConnectedSubgraphCountsTest {

  /** Connected classes by sorted degree sequence, in {@link ConnectedSubgraphCounts}'s order. */
  private static final int[][] K3 = {{1, 1, 2}, {2, 2, 2}};
  private static final int[][] K4 = {{1, 1, 2, 2}, {1, 1, 1, 3}, {2, 2, 2, 2}, {1, 2, 2, 3}, {2, 2, 3, 3}, {3, 3, 3, 3}};

  private static int[][] bruteForce(Graph g, int k) {
    int n = g.n();
    int[][] table = k == 3 ? K3 : K4;
    int[][] counts = new int[n][table.length];
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) != k) {
        continue;
      }
      int[] set = new int[k];
      int s = 0;
      for (int v = 0; v < n; v++) {
        if ((mask >> v & 1) != 0) {
          set[s++] = v;
        }
      }
      Graph sub = g.induced(set);
      if (!connected(sub)) {
        continue;
      }
      int[] degrees = new int[k];
      for (int i = 0; i < k; i++) {
        degrees[i] = sub.degree(i);
      }
      Arrays.sort(degrees);
      int cls = -1;
      for (int c = 0; c < table.length; c++) {
        if (Arrays.equals(table[c], degrees)) {
          cls = c;
        }
      }
      for (int v : set) {
        counts[v][cls]++;
      }
    }
    return counts;
  }

  private static boolean connected(Graph g) {
    int[] dist = io.expresso.graph.ShortestPaths.bfs(g, 0);
    return Arrays.stream(dist).noneMatch(d -> d < 0);
  }

  @Test
  void matchesBruteForceOnRandomGraphs() {
    Random rnd = new Random(5);
    for (int i = 0; i < 40; i++) {
      Graph g = TestGraphs.random(rnd, 3 + rnd.nextInt(9), 0.2 + rnd.nextDouble() * 0.6);
      for (int k = 3; k <= 4; k++) {
        assertThat(ConnectedSubgraphCounts.of(g, k)).as("k=%d on %s", k, g).isDeepEqualTo(bruteForce(g, k));
      }
    }
  }

  @Test
  void countsOnKnownGraphs() {
    Graph k4 = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3);
    assertThat(ConnectedSubgraphCounts.of(k4, 3)[0]).containsExactly(0, 3);
    assertThat(ConnectedSubgraphCounts.of(k4, 4)[0]).containsExactly(0, 0, 0, 0, 0, 1);
    Graph c4 = TestGraphs.csl(4, 1);
    assertThat(ConnectedSubgraphCounts.of(c4, 3)[2]).containsExactly(3, 0);
    assertThat(ConnectedSubgraphCounts.of(c4, 4)[2]).containsExactly(0, 0, 1, 0, 0, 0);
  }
}
