package io.expresso.wl;

import io.expresso.graph.Graph;

/**
 * For every vertex, how many connected induced k-vertex subgraphs (k = 3 or 4) of each
 * isomorphism class contain it. Enumerates each connected k-set exactly once with the ESU
 * algorithm (Wernicke 2006), so the cost follows the number of connected k-sets, not n^k.
 *
 * <p>Classes for k = 3: 0 path P₃, 1 triangle. For k = 4: 0 path P₄, 1 star K₁,₃, 2 cycle C₄,
 * 3 paw, 4 diamond, 5 K₄ (on at most four vertices, edge count and maximum degree tell the
 * connected classes apart).
 */
final class ConnectedSubgraphCounts {

  private final Graph g;
  private final int k;
  private final int[][] counts; // counts[v][class]
  private final int[] members;

  private ConnectedSubgraphCounts(Graph g, int k) {
    this.g = g;
    this.k = k;
    this.counts = new int[g.n()][classCount(k)];
    this.members = new int[k];
  }

  /** The number of connected classes on k vertices. */
  static int classCount(int k) {
    return switch (k) {
      case 3 -> 2;
      case 4 -> 6;
      default -> throw new IllegalArgumentException("substructure size must be 3 or 4, not " + k);
    };
  }

  /** {@code counts[v][c]}: connected induced k-subgraphs of class c that contain v. */
  static int[][] of(Graph g, int k) {
    ConnectedSubgraphCounts c = new ConnectedSubgraphCounts(g, k);
    c.enumerate();
    return c.counts;
  }

  private void enumerate() {
    int n = g.n();
    int[] ext = new int[n];
    for (int v = 0; v < n; v++) {
      int size = 0;
      for (int u : g.neighbors(v)) {
        if (u > v) {
          ext[size++] = u;
        }
      }
      members[0] = v;
      extend(1, ext, size, v);
    }
  }

  /** ESU step: {@code members[0..size)} is connected; extension candidates {@code ext[0..extSize)}. */
  private void extend(int size, int[] ext, int extSize, int root) {
    if (size == k) {
      record();
      return;
    }
    int[] remaining = ext.clone();
    int left = extSize;
    while (left > 0) {
      int w = remaining[--left];
      // New candidates: neighbours of w above root, outside the set and not adjacent to it
      // (the exclusive neighbourhood); candidates already pending are all adjacent to the set,
      // so none is added twice.
      int[] next = new int[left + g.degree(w)];
      System.arraycopy(remaining, 0, next, 0, left);
      int nextSize = left;
      for (int u : g.neighbors(w)) {
        if (u > root && !inSetOrItsNeighbourhood(u, size)) {
          next[nextSize++] = u;
        }
      }
      members[size] = w;
      extend(size + 1, next, nextSize, root);
    }
  }

  private boolean inSetOrItsNeighbourhood(int u, int size) {
    for (int i = 0; i < size; i++) {
      if (members[i] == u || g.adjacent(members[i], u)) {
        return true;
      }
    }
    return false;
  }

  private void record() {
    int edges = 0;
    int maxDegree = 0;
    for (int i = 0; i < k; i++) {
      int d = 0;
      for (int j = 0; j < k; j++) {
        if (i != j && g.adjacent(members[i], members[j])) {
          d++;
        }
      }
      edges += d;
      maxDegree = Math.max(maxDegree, d);
    }
    edges /= 2;
    int cls = classify(k, edges, maxDegree);
    for (int i = 0; i < k; i++) {
      counts[members[i]][cls]++;
    }
  }

  static int classify(int k, int edges, int maxDegree) {
    if (k == 3) {
      return edges == 3 ? 1 : 0;
    }
    return switch (edges) {
      case 3 -> maxDegree == 3 ? 1 : 0;
      case 4 -> maxDegree == 3 ? 3 : 2;
      case 5 -> 4;
      case 6 -> 5;
      default -> throw new IllegalStateException("disconnected 4-set with " + edges + " edges");
    };
  }
}
