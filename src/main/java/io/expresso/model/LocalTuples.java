package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * A batch of graphs as the ordered pairs (2-tuples) of their vertices, with each tuple's local
 * neighbours (Morris et al.'s δ-2-LWL): graph b's tuple (v,w) is row {@code offset[b] + v·n + w}
 * (BREC's SparseWL lays its two-tuple graph out so); its neighbours in position 1 are the tuples
 * (u,w) with u adjacent to v, in position 2 the tuples (v,u) with u adjacent to w. Plain arrays,
 * built without the engine; {@link #toNDList} makes {@link DeltaLgnnBlock}'s inputs of them.
 *
 * @param rows N, the tuples of the batch
 * @param types per row, its tuple's atomic type ({@link Graph#atomicType}: equal, adjacent, neither)
 * @param first per row, the rows of its position-1 neighbours
 * @param second per row, the rows of its position-2 neighbours
 * @param graphRows per graph, its rows (for Set2Set's read-out)
 */
record LocalTuples(int rows, int[] types, int[][] first, int[][] second, int[][] graphRows) {

  static LocalTuples of(List<Graph> graphs) {
    int rows = 0;
    for (Graph g : graphs) {
      rows += g.n() * g.n();
    }
    int[] types = new int[rows];
    int[][] first = new int[rows][];
    int[][] second = new int[rows][];
    int[][] graphRows = new int[graphs.size()][];
    int offset = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      int n = g.n();
      graphRows[b] = new int[n * n];
      for (int v = 0; v < n; v++) {
        for (int w = 0; w < n; w++) {
          int row = offset + v * n + w;
          types[row] = g.atomicType(v, w);
          int[] nv = g.neighbors(v);
          int[] nw = g.neighbors(w);
          first[row] = new int[nv.length];
          second[row] = new int[nw.length];
          for (int k = 0; k < nv.length; k++) {
            first[row][k] = offset + nv[k] * n + w;
          }
          for (int k = 0; k < nw.length; k++) {
            second[row][k] = offset + v * n + nw[k];
          }
          graphRows[b][v * n + w] = row;
        }
      }
      offset += n * n;
    }
    return new LocalTuples(rows, types, first, second, graphRows);
  }

  /**
   * The one-hot atomic types N×3, the two neighbour tables (padding N, {@link Gather}), the
   * per-graph row table B×M (M the largest graph's tuples, padding N) and its mask B×M (1 a row, 0 padding).
   */
  NDList toNDList(NDManager manager) {
    float[] oneHot = new float[rows * Graph.ATOMIC_TYPES];
    for (int r = 0; r < rows; r++) {
      oneHot[r * Graph.ATOMIC_TYPES + types[r]] = 1f;
    }
    int width = 1;
    for (int[] g : graphRows) {
      width = Math.max(width, g.length);
    }
    float[] mask = new float[graphRows.length * width];
    for (int b = 0; b < graphRows.length; b++) {
      java.util.Arrays.fill(mask, b * width, b * width + graphRows[b].length, 1f);
    }
    return new NDList(
        manager.create(oneHot, new Shape(rows, Graph.ATOMIC_TYPES)),
        NodeTables.padded(manager, first, rows),
        NodeTables.padded(manager, second, rows),
        NodeTables.padded(manager, graphRows, rows),
        manager.create(mask, new Shape(graphRows.length, width)));
  }
}
