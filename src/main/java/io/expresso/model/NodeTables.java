package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * A batch of graphs as one flat node table: graph b's vertex v is row {@code offset[b] + v}. Gives
 * the padded neighbour and pooling index tables of {@link Gather} (padding = total node count).
 */
record NodeTables(int nodes, int[][] neighbourRows, int[][] poolRows) {

  /**
   * Activation bytes a message-passing network keeps over {@code nodes} rows until the backward
   * pass: per layer about 16 hidden-wide float rows per node (aggregation, linear, norm and
   * activation stages) plus the gathered neighbour rows and their gradients, 4 per neighbour slot.
   * Measured against DE+NGNN on BREC's 63-vertex 4-vertex-condition graphs (about 250 MB a graph
   * at radius 3, degree 30), which an estimate without the neighbour term put at 32 MB.
   */
  static long activationBytes(long nodes, int maxDegree, int hidden, int layers) {
    return 4L * nodes * hidden * layers * (16L + 4L * maxDegree);
  }

  static NodeTables of(List<Graph> graphs) {
    int total = 0;
    for (Graph g : graphs) {
      total += g.n();
    }
    int[][] nbr = new int[total][];
    int[][] pool = new int[graphs.size()][];
    int offset = 0;
    for (int b = 0; b < graphs.size(); b++) {
      Graph g = graphs.get(b);
      pool[b] = new int[g.n()];
      for (int v = 0; v < g.n(); v++) {
        int[] ns = g.neighbors(v);
        for (int k = 0; k < ns.length; k++) {
          ns[k] += offset;
        }
        nbr[offset + v] = ns;
        pool[b][v] = offset + v;
      }
      offset += g.n();
    }
    return new NodeTables(total, nbr, pool);
  }

  NDArray neighbours(NDManager manager) {
    return padded(manager, neighbourRows, nodes);
  }

  NDArray pooling(NDManager manager) {
    return padded(manager, poolRows, nodes);
  }

  /** A rows×maxLen int64 table, short rows filled with {@code pad}; at least one column. */
  static NDArray padded(NDManager manager, int[][] rows, int pad) {
    int width = 1;
    for (int[] r : rows) {
      width = Math.max(width, r.length);
    }
    long[] flat = new long[rows.length * width];
    for (int i = 0; i < rows.length; i++) {
      for (int j = 0; j < width; j++) {
        flat[i * width + j] = j < rows[i].length ? rows[i][j] : pad;
      }
    }
    return manager.create(flat, new Shape(rows.length, width));
  }
}
