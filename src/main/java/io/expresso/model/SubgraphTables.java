package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import io.expresso.graph.Graph;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * A batch of graphs as I²-GNN's per-(root i, neighbour j) subgraphs, packed: one row per node of
 * every subgraph, in order of graph, root, neighbour and vertex (as their PyG batch lays nodes out,
 * with no padding). Plain arrays, built without the engine; {@link #toNDList} makes
 * {@link I2GnnNetwork}'s inputs of them.
 *
 * @param nodes T, the rows
 * @param labelWidth K, label columns per row
 * @param labels T×K row-major: each row's label one-hot ({@code hop}) or multi-hot counts ({@code spd})
 * @param edgeFrom directed edges inside the subgraphs, as row pairs: the row a message goes to
 * @param edgeTo the row it comes from
 * @param pairOfNode per row, its subgraph (0 … P − 1)
 * @param rootOfPair per subgraph, its root (0 … R − 1, numbered over the batch)
 * @param graphOfRoot per root, its graph (0 … B − 1)
 * @param graphs B
 */
record SubgraphTables(int nodes, int labelWidth, float[] labels, int[] edgeFrom, int[] edgeTo, int[] pairOfNode,
    int[] rootOfPair, int[] graphOfRoot, int graphs) {

  int pairs() {
    return rootOfPair.length;
  }

  int roots() {
    return graphOfRoot.length;
  }

  /**
   * The subgraphs of {@code graphs}: per root i its {@code hops}-ball (induced edges), once per
   * neighbour j marked; a root without neighbours gets one subgraph of itself (as Campi's
   * {@code create_subgraphs2}). Rows are labelled as {@code labelling} says.
   */
  static SubgraphTables of(List<Graph> graphs, int hops, I2GnnNetwork.Labels labelling) {
    int k = labelling.distinct(hops);
    int rows = 0;
    int edges = 0;
    int pairs = 0;
    int roots = 0;
    List<int[][]> balls = new java.util.ArrayList<>(graphs.size());
    for (Graph g : graphs) {
      int[][] ball = new int[g.n()][];
      for (int i = 0; i < g.n(); i++) {
        ball[i] = I2GnnBlock.distancesWithin(g, i, hops);
        int size = 0;
        int inside = 0;
        for (int v = 0; v < g.n(); v++) {
          if (ball[i][v] >= 0) {
            size++;
            for (int w : g.neighbors(v)) {
              inside += ball[i][w] >= 0 ? 1 : 0;
            }
          }
        }
        int subgraphs = Math.max(1, g.degree(i));
        rows += subgraphs * size;
        edges += subgraphs * inside;
        pairs += subgraphs;
      }
      balls.add(ball);
      roots += g.n();
    }
    float[] labels = new float[rows * k];
    int[] edgeFrom = new int[edges];
    int[] edgeTo = new int[edges];
    int[] pairOfNode = new int[rows];
    int[] rootOfPair = new int[pairs];
    int[] graphOfRoot = new int[roots];
    int row = 0;
    int edge = 0;
    int p = 0;
    int root = 0;
    int[] local = new int[0];
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      if (local.length < g.n()) {
        local = new int[g.n()];
      }
      for (int i = 0; i < g.n(); i++, root++) {
        graphOfRoot[root] = b;
        int[] dist = balls.get(b)[i];
        int size = 0;
        for (int v = 0; v < g.n(); v++) {
          local[v] = dist[v] < 0 ? -1 : size++;
        }
        int[] marked = g.degree(i) == 0 ? new int[] {-1} : g.neighbors(i);
        for (int j : marked) {
          int[] fromJ = labelling == I2GnnNetwork.Labels.SPD && j >= 0 ? distancesInside(g, j, local) : null;
          for (int v = 0; v < g.n(); v++) {
            if (local[v] < 0) {
              continue;
            }
            int r = row + local[v];
            pairOfNode[r] = p;
            if (labelling == I2GnnNetwork.Labels.HOP) {
              labels[r * k + (v == i ? 1 : v == j ? 2 : 0)] = 1;
            } else {
              labels[r * k + dist[v] + 1] += 1;
              labels[r * k] += 1;
              labels[r * k + (fromJ == null ? 1 : fromJ[v] + 1 + hops + 3)] += 1;
              labels[r * k + (fromJ == null ? 0 : hops + 3)] += 1;
            }
            for (int w : g.neighbors(v)) {
              if (local[w] >= 0) {
                edgeFrom[edge] = r;
                edgeTo[edge] = row + local[w];
                edge++;
              }
            }
          }
          rootOfPair[p] = root;
          p++;
          row += size;
        }
      }
    }
    return new SubgraphTables(rows, k, labels, edgeFrom, edgeTo, pairOfNode, rootOfPair, graphOfRoot, graphs.size());
  }

  /**
   * {@link I2GnnNetwork}'s inputs: adjacency (T, T) (row v sums its neighbours' rows), labels
   * (T, K), node-to-subgraph (P, T), subgraph-to-root (R, P) and root-to-graph (B, R) sum
   * matrices, the four sparse (COO, values 1).
   */
  NDList toNDList(NDManager manager) {
    return new NDList(
        ones(manager, edgeFrom, edgeTo, nodes, nodes),
        manager.create(labels, new Shape(nodes, labelWidth)),
        ones(manager, pairOfNode, sequence(nodes), pairs(), nodes),
        ones(manager, rootOfPair, sequence(pairs()), roots(), pairs()),
        ones(manager, graphOfRoot, sequence(roots()), graphs, roots()));
  }

  /**
   * A sparse matrix with a 1 at each (rows[e], cols[e]). Its indices and values are PyTorch's own
   * memory: DJL's {@code createCoo} builds them over Java buffers it frees at once, which the
   * sparse tensor goes on reading (garbage indices by the backward pass).
   */
  static NDArray ones(NDManager manager, int[] rows, int[] cols, int height, int width) {
    long[] indices = new long[2 * rows.length];
    for (int e = 0; e < rows.length; e++) {
      indices[e] = rows[e];
      indices[rows.length + e] = cols[e];
    }
    try (NDArray javaOwned = manager.create(indices, new Shape(2, rows.length));
        NDArray index = javaOwned.duplicate();
        NDArray values = manager.ones(new Shape(rows.length))) {
      NDArray coo = JniUtils.createSparseCoo((PtNDArray) index, (PtNDArray) values, new Shape(height, width));
      coo.attach(manager);
      return coo;
    }
  }

  private static int[] sequence(int n) {
    int[] s = new int[n];
    for (int i = 0; i < n; i++) {
      s[i] = i;
    }
    return s;
  }

  /** BFS distances from {@code s} over the vertices with {@code local[v] >= 0} (the ball), −1 elsewhere. */
  private static int[] distancesInside(Graph g, int s, int[] local) {
    int[] d = new int[g.n()];
    Arrays.fill(d, -1);
    d[s] = 0;
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(s);
    while (!queue.isEmpty()) {
      int u = queue.poll();
      for (int w : g.neighbors(u)) {
        if (d[w] < 0 && local[w] >= 0) {
          d[w] = d[u] + 1;
          queue.add(w);
        }
      }
    }
    return d;
  }
}
