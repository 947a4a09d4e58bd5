package io.expresso.count;

import io.expresso.graph.Graph;

/**
 * Enumerates every connected vertex subset of size k exactly once (the ESU algorithm of Wernicke,
 * 2006) on the bitset rows of a graph. Work is proportional to the number of connected k-subsets
 * times k·words, i.e. O(n·d^(k-1)) on graphs of maximum degree d, the bound of Shervashidze et al.
 */
final class ConnectedSubsets {

  /** Receives each connected subset: its vertices and their adjacency mask (see {@link Pattern#pairBit}). */
  interface Visitor {
    void visit(int[] vertices, int mask);
  }

  private ConnectedSubsets() {}

  static void forEach(Graph g, int k, Visitor visitor) {
    int n = g.n();
    int words = g.words();
    long[] rows = g.bitRows();
    int[] sub = new int[k];
    long[][] ext = new long[k + 1][words];
    long[][] closed = new long[k + 1][words];
    for (int v = 0; v < n; v++) {
      sub[0] = v;
      long[] e = ext[1];
      long[] c = closed[1];
      for (int w = 0; w < words; w++) {
        long row = rows[v * words + w];
        e[w] = row & above(v, w);
        c[w] = row;
      }
      c[v >>> 6] |= 1L << v;
      extend(rows, words, k, v, sub, 1, 0, ext, closed, visitor);
    }
  }

  /** Bits of word {@code w} that stand for vertices greater than {@code v}. */
  private static long above(int v, int w) {
    int base = w << 6;
    if (v < base) {
      return -1L;
    }
    if (v >= base + 63) {
      return 0L;
    }
    return -1L << (v - base + 1);
  }

  private static void extend(long[] rows, int words, int k, int root, int[] sub, int size, int mask,
      long[][] ext, long[][] closed, Visitor visitor) {
    if (size == k) {
      visitor.visit(sub, mask);
      return;
    }
    long[] e = ext[size];
    long[] c = closed[size];
    long[] e2 = ext[size + 1];
    long[] c2 = closed[size + 1];
    for (int w0 = 0; w0 < words; w0++) {
      while (e[w0] != 0) {
        int w = (w0 << 6) + Long.numberOfTrailingZeros(e[w0]);
        e[w0] &= e[w0] - 1;
        int base = w * words;
        for (int x = 0; x < words; x++) {
          long row = rows[base + x];
          // ESU: extend by the exclusive neighbours of w that lie above the root.
          e2[x] = e[x] | (row & ~c[x] & above(root, x));
          c2[x] = c[x] | row;
        }
        int newMask = mask;
        for (int a = 0; a < size; a++) {
          int u = sub[a];
          if ((rows[base + (u >>> 6)] >>> u & 1L) != 0) {
            newMask |= 1 << Pattern.pairBit(k, a, size);
          }
        }
        sub[size] = w;
        extend(rows, words, k, root, sub, size + 1, newMask, ext, closed, visitor);
      }
    }
  }
}
