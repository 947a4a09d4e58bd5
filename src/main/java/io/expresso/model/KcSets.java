package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * A batch of graphs as their (k,c)(≤) sets (Zhao et al. 2022, KC-SetGNN): every vertex set of at most
 * k vertices whose induced subgraph has at most c connected components, level j holding the sets of
 * j + 1 vertices, and the containment pairs between consecutive levels. BREC's KCSetWLSubgraphs grows
 * level j + 1 from level j by one vertex at a time (a neighbour of the set, or any vertex while the set
 * has fewer than c components); that reaches exactly these sets and pairs, and for k ≤ 3 its component
 * count is the true one. Plain arrays, built without the engine; {@link #toNDList} makes
 * {@link KcSetGnnBlock}'s inputs of them.
 *
 * <p>Rows are laid out level-major, graph by graph within a level, as BREC's Parallel bipartite layer
 * concatenates them: the rows of levels below the top are a prefix ({@code left}), those above level 0 a
 * suffix ({@code right}). Every set with one component also holds its induced subgraph: one node row per
 * vertex (its graph's vertex, its neighbours inside the set); a set of several components has none, its
 * state starts at zero (BREC's zero_init).
 *
 * @param k the largest set size
 * @param graphs B
 * @param level per set row, its size less one
 * @param components per set row, its number of connected components
 * @param graphOf per set row, its graph
 * @param groupStart per (level, graph), level-major, its first row; one more entry: the row count
 * @param subsets per set row above level 0, its subsets one level down (rows of the prefix)
 * @param nodeSet per subgraph node row, the set it belongs to
 * @param nodeNeighbours per subgraph node row, the node rows of its neighbours inside the set
 */
record KcSets(int k, int graphs, int[] level, int[] components, int[] graphOf, int[] groupStart, int[][] subsets,
    int[] nodeSet, int[][] nodeNeighbours) {

  /** The most set rows one batch may hold: its tables index rows with ints. */
  static final long MAX_ROWS = 100_000_000L;

  int rows() {
    return level.length;
  }

  /** Rows of the levels below the top (those with supersets). */
  int left() {
    return groupStart[(k - 1) * graphs];
  }

  /** Rows of level 0 (those without subsets). */
  int firstLevel() {
    return groupStart[graphs];
  }

  int nodes() {
    return nodeSet.length;
  }

  /**
   * The number of (k,c)(≤) sets of {@code g} and the node rows of their subgraphs, without listing
   * them (memory estimates): {sets, nodes}. Closed forms for k ≤ 3 (BREC's k), else by enumeration.
   */
  static long[] count(Graph g, int k, int c) {
    if (k > 3) {
      long[] sizes = {0, 0};
      forEachSet(g, k, c, (set, size, comps) -> {
        sizes[0]++;
        sizes[1] += comps == 1 ? size : 0;
      });
      return sizes;
    }
    long n = g.n();
    long m = 0;
    long cherries = 0; // paths of two edges, a triangle holding three
    long triangles3 = 0; // each triangle counted once per edge
    boolean[][] adj = adjacency(g);
    for (int v = 0; v < n; v++) {
      long d = g.neighbors(v).length;
      m += d;
      cherries += d * (d - 1) / 2;
      for (int u : g.neighbors(v)) {
        if (u > v) {
          for (int w = 0; w < n; w++) {
            triangles3 += adj[v][w] && adj[u][w] ? 1 : 0;
          }
        }
      }
    }
    m /= 2;
    long triangles = triangles3 / 3;
    long connectedTriples = cherries - 2 * triangles; // paths and triangles
    long twoComponentTriples = m * (n - 2) - 2 * cherries + 3 * triangles; // an edge and a vertex apart from it
    long allTriples = n * (n - 1) * (n - 2) / 6;
    long pairs = c >= 2 ? n * (n - 1) / 2 : m;
    long triples = c >= 3 ? allTriples : c == 2 ? connectedTriples + twoComponentTriples : connectedTriples;
    long sets = n + (k >= 2 ? pairs : 0) + (k >= 3 ? triples : 0);
    long nodes = n + (k >= 2 ? 2 * m : 0) + (k >= 3 ? 3 * connectedTriples : 0);
    return new long[] {sets, nodes};
  }

  static KcSets of(List<Graph> graphs, int k, int c) {
    int b = graphs.size();
    long[][] perGroup = new long[k][b];
    long total = 0;
    long nodes = 0;
    for (int i = 0; i < b; i++) {
      long[] s = count(graphs.get(i), k, c);
      total += s[0];
      nodes += s[1];
    }
    if (total > MAX_ROWS || nodes > MAX_ROWS) {
      throw new IllegalArgumentException("kc-setgnn: " + b + " graphs of up to " + maxOrder(graphs) + " vertices hold "
          + total + " (" + k + "," + c + ")-sets with " + nodes + " subgraph nodes, more than the " + MAX_ROWS
          + " rows a batch may hold");
    }
    for (int i = 0; i < b; i++) {
      int gi = i;
      forEachSet(graphs.get(i), k, c, (set, size, comps) -> perGroup[size - 1][gi]++);
    }
    int[] groupStart = new int[k * b + 1];
    for (int j = 0, at = 0; j < k; j++) {
      for (int i = 0; i < b; i++) {
        groupStart[j * b + i] = at;
        at += (int) perGroup[j][i];
      }
    }
    groupStart[k * b] = (int) total;
    int rows = (int) total;
    int[] level = new int[rows];
    int[] components = new int[rows];
    int[] graphOf = new int[rows];
    int[][] subsets = new int[rows][];
    int[] nodeSet = new int[(int) nodes];
    int[][] nodeNeighbours = new int[(int) nodes][];
    int[] nextRow = new int[k * b];
    System.arraycopy(groupStart, 0, nextRow, 0, k * b);
    int[] nextNode = {0};
    for (int i = 0; i < b; i++) {
      Graph g = graphs.get(i);
      int gi = i;
      boolean[][] adj = adjacency(g);
      java.util.Map<Long, Integer> rowOf = new java.util.HashMap<>();
      int n = g.n();
      forEachSet(g, k, c, (set, size, comps) -> {
        int row = nextRow[(size - 1) * b + gi]++;
        level[row] = size - 1;
        components[row] = comps;
        graphOf[row] = gi;
        rowOf.put(key(set, size, n), row);
        if (size > 1) {
          // sets come in increasing size, so every subset already has its row
          int[] sub = new int[size];
          int[] smaller = new int[size - 1];
          for (int drop = 0; drop < size; drop++) {
            for (int x = 0, y = 0; x < size; x++) {
              if (x != drop) {
                smaller[y++] = set[x];
              }
            }
            sub[drop] = rowOf.get(key(smaller, size - 1, n));
          }
          subsets[row] = sub;
        } else {
          subsets[row] = new int[0];
        }
        if (comps == 1) {
          int first = nextNode[0];
          for (int x = 0; x < size; x++) {
            nodeSet[first + x] = row;
            int count = 0;
            for (int y = 0; y < size; y++) {
              count += adj[set[x]][set[y]] ? 1 : 0;
            }
            int[] nb = new int[count];
            for (int y = 0, z = 0; y < size; y++) {
              if (adj[set[x]][set[y]]) {
                nb[z++] = first + y;
              }
            }
            nodeNeighbours[first + x] = nb;
          }
          nextNode[0] += size;
        }
      });
    }
    return new KcSets(k, b, level, components, graphOf, groupStart, subsets, nodeSet, nodeNeighbours);
  }

  private static int maxOrder(List<Graph> graphs) {
    int most = 0;
    for (Graph g : graphs) {
      most = Math.max(most, g.n());
    }
    return most;
  }

  private static long key(int[] set, int size, int n) {
    long key = 0;
    for (int x = 0; x < size; x++) {
      key = key * (n + 1) + set[x] + 1;
    }
    return key;
  }

  /** What {@link #forEachSet} hands on: the set's vertices ascending (the first {@code size} entries), its components. */
  interface SetVisitor {
    void visit(int[] set, int size, int components);
  }

  /**
   * Visits every set of at most k vertices of g with at most c components, by size, then ascending
   * lexicographic order; a set of size s + 1 is grown from its sets of size s by a vertex above their
   * largest (so once each), and only from a set that can still take it: a neighbour of it, or any vertex
   * while it has fewer than c components.
   */
  static void forEachSet(Graph g, int k, int c, SetVisitor visitor) {
    boolean[][] adj = adjacency(g);
    int n = g.n();
    for (int size = 1; size <= Math.min(k, n); size++) {
      grow(adj, new int[size], 0, 0, size, c, visitor);
    }
  }

  // every subset of the size in lexicographic order, kept when it has at most c components (k is small: BREC's 3)
  private static void grow(boolean[][] adj, int[] set, int filled, int from, int size, int c, SetVisitor visitor) {
    if (filled == size) {
      int comps = components(adj, set, size);
      if (comps <= c) {
        visitor.visit(set, size, comps);
      }
      return;
    }
    for (int v = from; v <= adj.length - (size - filled); v++) {
      set[filled] = v;
      grow(adj, set, filled + 1, v + 1, size, c, visitor);
    }
  }

  /** Connected components of the subgraph the first {@code size} vertices of {@code set} induce. */
  static int components(boolean[][] adj, int[] set, int size) {
    int[] parent = new int[size];
    for (int x = 0; x < size; x++) {
      parent[x] = x;
    }
    int comps = size;
    for (int x = 0; x < size; x++) {
      for (int y = x + 1; y < size; y++) {
        if (adj[set[x]][set[y]]) {
          int a = root(parent, x);
          int b = root(parent, y);
          if (a != b) {
            parent[a] = b;
            comps--;
          }
        }
      }
    }
    return comps;
  }

  private static int root(int[] parent, int x) {
    while (parent[x] != x) {
      x = parent[x];
    }
    return x;
  }

  static boolean[][] adjacency(Graph g) {
    boolean[][] adj = new boolean[g.n()][g.n()];
    for (int v = 0; v < g.n(); v++) {
      for (int u : g.neighbors(v)) {
        adj[v][u] = true;
      }
    }
    return adj;
  }

  /**
   * {@link KcSetGnnBlock}'s inputs: per set row its level one-hot R×k and component one-hot R×c, 1/(level + 1)
   * R×1; per subgraph node a column of ones T×1; the sparse sums (values 1) of neighbours inside the set
   * T×T, of a set's nodes R×T, of a prefix row's supersets L×R and of a suffix row's subsets (R − F)×L.
   */
  NDList toNDList(NDManager manager, int c) {
    int rows = rows();
    float[] levelHot = new float[rows * k];
    float[] compHot = new float[rows * c];
    float[] inverseSize = new float[rows];
    int edges = 0;
    int subsetPairs = 0;
    for (int r = 0; r < rows; r++) {
      levelHot[r * k + level[r]] = 1f;
      compHot[r * c + components[r] - 1] = 1f;
      inverseSize[r] = 1f / (level[r] + 1);
      subsetPairs += subsets[r].length;
    }
    for (int[] nb : nodeNeighbours) {
      edges += nb.length;
    }
    int[] from = new int[edges];
    int[] to = new int[edges];
    for (int t = 0, e = 0; t < nodes(); t++) {
      for (int u : nodeNeighbours[t]) {
        to[e] = t;
        from[e++] = u;
      }
    }
    int[] sub = new int[subsetPairs];
    int[] sup = new int[subsetPairs];
    for (int r = 0, e = 0; r < rows; r++) {
      for (int s : subsets[r]) {
        sub[e] = s;
        sup[e++] = r;
      }
    }
    int first = firstLevel();
    int[] supShifted = new int[subsetPairs];
    for (int e = 0; e < subsetPairs; e++) {
      supShifted[e] = sup[e] - first;
    }
    int[] setRows = new int[nodes()];
    for (int t = 0; t < nodes(); t++) {
      setRows[t] = t;
    }
    return new NDList(
        manager.create(levelHot, new Shape(rows, k)),
        manager.create(compHot, new Shape(rows, c)),
        manager.create(inverseSize, new Shape(rows, 1)),
        manager.ones(new Shape(nodes(), 1)),
        SubgraphTables.ones(manager, to, from, nodes(), nodes()),
        SubgraphTables.ones(manager, nodeSet, setRows, rows, nodes()),
        SubgraphTables.ones(manager, sub, sup, left(), rows),
        SubgraphTables.ones(manager, supShifted, sub, rows - first, left()));
  }
}
