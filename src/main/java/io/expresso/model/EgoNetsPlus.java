package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.expresso.graph.Graph;
import io.expresso.graph.ShortestPaths;
import java.util.Arrays;
import java.util.List;

/**
 * ESAN's {@code ego_nets_plus} policy as flat tables (DS-GNN, DSS-GNN, SUN): one subgraph per root
 * vertex holding every vertex of the graph but only the edges inside the root's {@code radius}-hop
 * ball; subgraph r of a graph is rooted at its vertex r, so subgraph and vertex rows share their
 * index. Each subgraph node's features: is-root, is-not-root, BREC's constant 1, then any encodings.
 */
final class EgoNetsPlus {

  private EgoNetsPlus() {}

  /** Input columns per subgraph node. */
  static int width(ModelSpec spec) {
    return 3 + spec.pe();
  }

  /**
   * The inputs listed in {@link EgoSubgraphBlock}'s comment for {@code spec}'s radius and encodings;
   * with {@code originals}, also each vertex's copies, the original graphs' neighbour table and each
   * subgraph node's vertex (DSS, SUN).
   */
  static NDList encode(NDManager manager, GraphBatch batch, float[] peSigns, ModelSpec spec, boolean originals) {
    List<Graph> graphs = batch.graphs();
    int total = 0;
    int vertices = 0;
    for (Graph g : graphs) {
      total += g.n() * g.n();
      vertices += g.n();
    }
    int width = width(spec);
    float[] x = new float[total * width];
    int[][] neighbours = new int[total][];
    int[][] subPool = new int[vertices][];
    float[] subInv = new float[vertices];
    int[][] graphPool = new int[graphs.size()][];
    long[] owner = new long[vertices];
    float[] graphInv = new float[graphs.size()];
    int[][] copies = new int[vertices][];
    long[] vertexOf = new long[total];
    int row = 0;
    int sub = 0;
    int vertexBase = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      int n = g.n();
      graphPool[b] = new int[n];
      graphInv[b] = 1f / n;
      for (int v = 0; v < n; v++) {
        copies[vertexBase + v] = new int[n];
      }
      float[][] pe = spec.pe() > 0 ? NodeFeature.pe(g, spec.pe(), peSigns) : null;
      for (int r = 0; r < n; r++) {
        int[] dist = ShortestPaths.bfs(g, r);
        graphPool[b][r] = sub;
        owner[sub] = b;
        subPool[sub] = new int[n];
        subInv[sub] = 1f / n;
        for (int v = 0; v < n; v++) {
          int at = row + v;
          x[at * width + (v == r ? 0 : 1)] = 1f;
          x[at * width + 2] = 1f;
          if (pe != null) {
            System.arraycopy(pe[v], 0, x, at * width + 3, spec.pe());
          }
          subPool[sub][v] = at;
          copies[vertexBase + v][r] = at;
          vertexOf[at] = vertexBase + v;
          neighbours[at] = inBall(g, v, dist, row, spec.radius());
        }
        row += n;
        sub++;
      }
      vertexBase += n;
    }
    NDList in = new NDList(
        manager.create(x, new Shape(total, width)),
        NodeTables.padded(manager, neighbours, total),
        NodeTables.padded(manager, subPool, total),
        manager.create(subInv, new Shape(vertices, 1)),
        NodeTables.padded(manager, graphPool, vertices),
        manager.create(graphInv, new Shape(graphs.size(), 1)),
        manager.create(owner, new Shape(vertices, 1)));
    if (originals) {
      in.add(NodeTables.padded(manager, copies, total));
      in.add(NodeTables.of(graphs).neighbours(manager));
      in.add(manager.create(vertexOf, new Shape(total, 1)));
    }
    return in;
  }

  /** v's neighbours whose edge lies inside the ball (both ends within the radius), as rows. */
  private static int[] inBall(Graph g, int v, int[] dist, int row, int radius) {
    if (!within(dist[v], radius)) {
      return new int[0];
    }
    int[] ns = g.neighbors(v);
    int k = 0;
    for (int u : ns) {
      if (within(dist[u], radius)) {
        ns[k++] = row + u;
      }
    }
    return Arrays.copyOf(ns, k);
  }

  private static boolean within(int d, int radius) {
    return d >= 0 && d <= radius;
  }
}
