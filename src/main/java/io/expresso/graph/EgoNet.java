package io.expresso.graph;

/**
 * The induced k-hop ego-net of a root: the subgraph induced by the vertices within distance
 * {@code radius}. The root is vertex 0 of {@link #graph()}; {@link #vertices()} maps back.
 */
public record EgoNet(Graph graph, int[] vertices, int[] distances) {

  /** The ego-net of radius {@code radius} around {@code root} in {@code g}. */
  public static EgoNet of(Graph g, int root, int radius) {
    int n = g.n();
    int[] dist = new int[n];
    java.util.Arrays.fill(dist, -1);
    int[] order = new int[n];
    int[] off = g.csrOffsets();
    int[] tgt = g.csrTargets();
    int head = 0;
    int tail = 0;
    dist[root] = 0;
    order[tail++] = root;
    while (head < tail) {
      int v = order[head++];
      if (dist[v] == radius) {
        continue;
      }
      for (int k = off[v]; k < off[v + 1]; k++) {
        int u = tgt[k];
        if (dist[u] < 0) {
          dist[u] = dist[v] + 1;
          order[tail++] = u;
        }
      }
    }
    int[] vertices = java.util.Arrays.copyOf(order, tail);
    int[] distances = new int[tail];
    for (int i = 0; i < tail; i++) {
      distances[i] = dist[vertices[i]];
    }
    return new EgoNet(g.induced(vertices), vertices, distances);
  }

  /** The root's index in {@link #graph()}: always 0. */
  public int root() {
    return 0;
  }
}
