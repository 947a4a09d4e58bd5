package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Exact canonical forms of rooted graphs (the root is distinguishable), for the small ego-nets
 * of {@link EgoNetWl}: two rooted graphs get equal {@link Certificate}s if and only if an
 * isomorphism maps one onto the other and root onto root.
 *
 * <p>Individualisation–refinement: the ordered partition ({root}, rest) is refined to an
 * equitable one by a label-invariant procedure; while a cell is not a singleton, each vertex of
 * the first such cell is individualised in turn and the search recurses. Every leaf (a discrete
 * partition) is a relabelling; the certificate is the lexicographically least adjacency matrix
 * over all leaves. Subtrees are skipped only when an automorphism found between leaves (two leaves
 * with equal matrices) that fixes the current prefix maps them onto an explored one, which leaves
 * the minimum unchanged; when a leaf equals the first or the best leaf, the search jumps back to
 * their last common ancestor (the automorphism maps the branch onto the explored one). The search is exact; a budget of {@value #MAX_SEARCH_NODES} tree nodes
 * guards against pathological symmetric inputs, with a clear error instead of a hang.
 */
final class RootedCanonicalForm {

  /** Search-tree nodes allowed per graph before giving up with an error. */
  static final int MAX_SEARCH_NODES = 200_000;

  /** A canonical adjacency matrix: the upper triangle, row by row, as bits. */
  static final class Certificate {
    private final int n;
    private final long[] bits;

    Certificate(int n, long[] bits) {
      this.n = n;
      this.bits = bits;
    }

    int compareTo(Certificate o) {
      int d = Integer.compare(n, o.n);
      return d != 0 ? d : Arrays.compareUnsigned(bits, o.bits);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Certificate c && c.n == n && Arrays.equals(c.bits, bits);
    }

    @Override
    public int hashCode() {
      return 31 * n + Arrays.hashCode(bits);
    }
  }

  private final Graph g;
  private final int n;
  private final List<int[]> automorphisms = new ArrayList<>();
  private Certificate first;
  private int[] firstLeaf;
  private int[] firstPath;
  private Certificate best;
  private int[] bestLeaf;
  private int[] bestPath;
  private int nodes;

  private RootedCanonicalForm(Graph g) {
    this.g = g;
    this.n = g.n();
  }

  /** The canonical certificate of {@code g} rooted at {@code root}. */
  static Certificate of(Graph g, int root) {
    RootedCanonicalForm f = new RootedCanonicalForm(g);
    int[] cell = new int[g.n()];
    Arrays.fill(cell, 1);
    cell[root] = 0;
    f.search(f.refine(cell), new int[0]);
    return f.best;
  }

  /**
   * Explores the subtree of the node reached by individualising {@code prefix}. Returns the depth
   * to resume at: {@link Integer#MAX_VALUE} normally, or the depth of the last common ancestor
   * with an earlier leaf when a leaf turned out equivalent to it (the automorphism found maps this
   * whole branch onto an explored sibling branch, so the search jumps back there).
   */
  private int search(int[] cell, int[] prefix) {
    if (++nodes > MAX_SEARCH_NODES) {
      throw new IllegalStateException("canonical labelling of a " + n + "-vertex ego-net exceeded "
          + MAX_SEARCH_NODES + " search nodes (too symmetric for this exact method)");
    }
    int target = firstNonSingletonCell(cell);
    if (target < 0) {
      return leaf(cell, prefix);
    }
    List<Integer> explored = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      if (cell[v] != target || equivalentToExplored(v, explored, prefix)) {
        continue;
      }
      int[] child = new int[n];
      // Individualise v: it goes first within its cell. Ranks stay dense after refinement.
      for (int u = 0; u < n; u++) {
        child[u] = 2 * cell[u] + (cell[u] == target && u != v ? 1 : 0);
      }
      int[] childPrefix = Arrays.copyOf(prefix, prefix.length + 1);
      childPrefix[prefix.length] = v;
      int resume = search(refine(child), childPrefix);
      if (resume < prefix.length) {
        return resume;
      }
      explored.add(v);
    }
    return Integer.MAX_VALUE;
  }

  /** True if an automorphism found so far, fixing the prefix pointwise, joins v to an explored vertex. */
  private boolean equivalentToExplored(int v, List<Integer> explored, int[] prefix) {
    if (explored.isEmpty() || automorphisms.isEmpty()) {
      return false;
    }
    int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    for (int[] gamma : automorphisms) {
      boolean fixes = true;
      for (int p : prefix) {
        fixes &= gamma[p] == p;
      }
      if (fixes) {
        for (int x = 0; x < n; x++) {
          union(parent, x, gamma[x]);
        }
      }
    }
    int rv = find(parent, v);
    for (int u : explored) {
      if (find(parent, u) == rv) {
        return true;
      }
    }
    return false;
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  private static void union(int[] parent, int a, int b) {
    parent[find(parent, a)] = find(parent, b);
  }

  private int leaf(int[] position, int[] path) {
    Certificate c = certificate(position);
    if (first == null) {
      first = c;
      firstLeaf = position;
      firstPath = path;
      best = c;
      bestLeaf = position;
      bestPath = path;
      return Integer.MAX_VALUE;
    }
    if (c.equals(first)) {
      automorphisms.add(automorphism(firstLeaf, position));
      return commonPrefix(firstPath, path);
    }
    int d = c.compareTo(best);
    if (d < 0) {
      best = c;
      bestLeaf = position;
      bestPath = path;
    } else if (d == 0) {
      automorphisms.add(automorphism(bestLeaf, position));
      return commonPrefix(bestPath, path);
    }
    return Integer.MAX_VALUE;
  }

  private static int commonPrefix(int[] a, int[] b) {
    int i = 0;
    while (i < a.length && i < b.length && a[i] == b[i]) {
      i++;
    }
    return i;
  }

  /** For leaves with equal matrices, x ↦ a⁻¹(b(x)) is an automorphism. */
  private int[] automorphism(int[] a, int[] b) {
    int[] aInverse = new int[n];
    for (int x = 0; x < n; x++) {
      aInverse[a[x]] = x;
    }
    int[] gamma = new int[n];
    for (int x = 0; x < n; x++) {
      gamma[x] = aInverse[b[x]];
    }
    return gamma;
  }

  private Certificate certificate(int[] position) {
    int[] vertexAt = new int[n];
    for (int x = 0; x < n; x++) {
      vertexAt[position[x]] = x;
    }
    long[] bits = new long[(int) (((long) n * (n - 1) / 2 + 63) / 64)];
    int bit = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++, bit++) {
        if (g.adjacent(vertexAt[i], vertexAt[j])) {
          bits[bit >>> 6] |= Long.MIN_VALUE >>> (bit & 63);
        }
      }
    }
    return new Certificate(n, bits);
  }

  private static int firstNonSingletonCell(int[] cell) {
    int cells = 0;
    int[] size = new int[cell.length];
    for (int c : cell) {
      size[c]++;
      cells = Math.max(cells, c + 1);
    }
    for (int c = 0; c < cells; c++) {
      if (size[c] > 1) {
        return c;
      }
    }
    return -1;
  }

  /**
   * Refines the ordered partition (cell ranks, any ints) to an equitable one with dense ranks:
   * repeatedly ranks vertices by (cell, sorted cells of neighbours), until no cell splits. Only
   * the structure and the old ranks decide the new ranks, so the result is label-invariant.
   */
  private int[] refine(int[] cell) {
    int[] off = g.csrOffsets();
    int[] tgt = g.csrTargets();
    int[] neighbourRanks = new int[tgt.length]; // per vertex, its neighbours' ranks, sorted
    int[] current = rank(cell, null, off);
    int cells = count(current);
    while (true) {
      for (int v = 0; v < n; v++) {
        for (int k = off[v]; k < off[v + 1]; k++) {
          neighbourRanks[k] = current[tgt[k]];
        }
        Arrays.sort(neighbourRanks, off[v], off[v + 1]);
      }
      int[] next = rank(current, neighbourRanks, off);
      int nextCells = count(next);
      current = next;
      if (nextCells == cells) {
        return current;
      }
      cells = nextCells;
    }
  }

  /**
   * Dense ranks of vertices ordered by old rank, then (when {@code keys} is given) by the sorted
   * neighbour ranks {@code keys[off[v] .. off[v+1])}, compared lexicographically.
   */
  private int[] rank(int[] old, int[] keys, int[] off) {
    int[] order = new int[n];
    for (int v = 0; v < n; v++) {
      order[v] = v;
    }
    IndexOrder cmp = keys == null
        ? (a, b) -> Integer.compare(old[a], old[b])
        : (a, b) -> {
          int d = Integer.compare(old[a], old[b]);
          return d != 0 ? d : Arrays.compare(keys, off[a], off[a + 1], keys, off[b], off[b + 1]);
        };
    sort(order, new int[n], 0, n, cmp);
    int[] r = new int[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (i > 0 && cmp.compare(order[i - 1], order[i]) != 0) {
        k++;
      }
      r[order[i]] = k;
    }
    return r;
  }

  /** A comparison of vertex indices, without boxing. */
  private interface IndexOrder {
    int compare(int a, int b);
  }

  /** Stable merge sort of {@code a[from, to)} by {@code cmp}, on primitive arrays. */
  private static void sort(int[] a, int[] buf, int from, int to, IndexOrder cmp) {
    if (to - from < 2) {
      return;
    }
    int mid = (from + to) >>> 1;
    sort(a, buf, from, mid, cmp);
    sort(a, buf, mid, to, cmp);
    if (cmp.compare(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, from, buf, from, to - from);
    int i = from;
    int j = mid;
    for (int k = from; k < to; k++) {
      if (j >= to || (i < mid && cmp.compare(buf[i], buf[j]) <= 0)) {
        a[k] = buf[i++];
      } else {
        a[k] = buf[j++];
      }
    }
  }

  private static int count(int[] ranks) {
    int m = -1;
    for (int r : ranks) {
      m = Math.max(m, r);
    }
    return m + 1;
  }
}
