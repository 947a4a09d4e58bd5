package io.expresso.count;

/**
 * Delta counting: a flip of {i, j} changes only the copies that contain both i and j, so the new
 * count is the old one minus the copies through i and j in the graph before the flip plus those
 * after it.
 *
 * <p>Copies through i and j are counted without enumerating them. Every other vertex w falls in
 * one of four classes by its adjacency to (i, j); the induced graph on {i, j, a, b} is fixed by
 * the state of {i, j}, the classes of a and b and whether a ~ b. So per class pair only the number
 * of adjacent pairs is needed, and every such pair has an endpoint in N(i) ∪ N(j): O((d(i)+d(j))·
 * words) popcounts per flip. Which class combinations form which pattern is derived once from
 * {@link Pattern#classify}, not written out by hand.
 */
public final class DeltaFlipCounter implements FlipCounter {

  // Class of a vertex w: bit 0 = adjacent to i, bit 1 = adjacent to j.
  private static final int CLASSES = 4;

  /** THREE[p][eij][c] = 1 when {i, j, w} with w of class c induces pattern p. */
  private static final int[][][] THREE = new int[Pattern.values().length][2][CLASSES];

  /** FOUR[p][eij][ca][cb][eab] = 1 when {i, j, a, b} induces pattern p. */
  private static final int[][][][][] FOUR = new int[Pattern.values().length][2][CLASSES][CLASSES][2];

  static {
    for (int eij = 0; eij < 2; eij++) {
      for (int c = 0; c < CLASSES; c++) {
        // local vertices: i = 0, j = 1, w = 2
        int mask = eij << Pattern.pairBit(3, 0, 1)
            | (c & 1) << Pattern.pairBit(3, 0, 2)
            | (c >> 1) << Pattern.pairBit(3, 1, 2);
        Pattern p = Pattern.classify(3, mask);
        if (p != null) {
          THREE[p.ordinal()][eij][c] = 1;
        }
        for (int cb = 0; cb < CLASSES; cb++) {
          for (int eab = 0; eab < 2; eab++) {
            // local vertices: i = 0, j = 1, a = 2, b = 3
            int m4 = eij << Pattern.pairBit(4, 0, 1)
                | (c & 1) << Pattern.pairBit(4, 0, 2)
                | (c >> 1) << Pattern.pairBit(4, 1, 2)
                | (cb & 1) << Pattern.pairBit(4, 0, 3)
                | (cb >> 1) << Pattern.pairBit(4, 1, 3)
                | eab << Pattern.pairBit(4, 2, 3);
            Pattern q = Pattern.classify(4, m4);
            if (q != null) {
              FOUR[q.ordinal()][eij][c][cb][eab] = 1;
            }
          }
        }
      }
    }
  }

  private long[] classMask = new long[0]; // CLASSES rows of `words` words
  private final long[] size = new long[CLASSES];
  private final long[][] adjacentPairs = new long[CLASSES][CLASSES]; // ordered sums, see below
  private long throughPresent;
  private long throughAbsent;

  @Override
  public long countAfterFlip(MutableGraph g, Pattern p, long count, int i, int j) {
    computeThrough(g, p, i, j);
    return g.adjacent(i, j)
        ? count - throughPresent + throughAbsent
        : count - throughAbsent + throughPresent;
  }

  /**
   * The number of induced copies of {@code p} containing both i and j in {@code g} with the pair
   * {i, j} set to {@code edgePresent} (whatever its state in g).
   */
  public long copiesThrough(MutableGraph g, Pattern p, int i, int j, boolean edgePresent) {
    computeThrough(g, p, i, j);
    return edgePresent ? throughPresent : throughAbsent;
  }

  /**
   * Both numbers of {@link #copiesThrough} in one pass: {@code out[0]} with {i, j} present,
   * {@code out[1]} with it absent.
   */
  public void copiesThrough(MutableGraph g, Pattern p, int i, int j, long[] out) {
    computeThrough(g, p, i, j);
    out[0] = throughPresent;
    out[1] = throughAbsent;
  }

  private void computeThrough(MutableGraph g, Pattern p, int i, int j) {
    if (i == j || i < 0 || j < 0 || i >= g.n() || j >= g.n()) {
      throw new IllegalArgumentException("cannot flip {" + i + ", " + j + "} in a graph on " + g.n() + " vertices");
    }
    int words = g.words();
    long[] rows = g.rows();
    if (words == 1) {
      computeThroughOneWord(rows, g.n(), p, i, j);
      return;
    }
    if (classMask.length < CLASSES * words) {
      classMask = new long[CLASSES * words];
    }
    long[] cm = classMask;
    int ri = i * words;
    int rj = j * words;
    long s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int w = 0; w < words; w++) {
      long valid = w == words - 1 && (g.n() & 63) != 0 ? (1L << g.n()) - 1 : -1L;
      if (w == i >>> 6) {
        valid &= ~(1L << i);
      }
      if (w == j >>> 6) {
        valid &= ~(1L << j);
      }
      long ni = rows[ri + w] & valid;
      long nj = rows[rj + w] & valid;
      long c3 = ni & nj;
      long c1 = ni & ~nj;
      long c2 = nj & ~ni;
      long c0 = valid & ~(ni | nj);
      cm[w] = c0;
      cm[words + w] = c1;
      cm[2 * words + w] = c2;
      cm[3 * words + w] = c3;
      s0 += Long.bitCount(c0);
      s1 += Long.bitCount(c1);
      s2 += Long.bitCount(c2);
      s3 += Long.bitCount(c3);
    }
    size[0] = s0;
    size[1] = s1;
    size[2] = s2;
    size[3] = s3;
    int po = p.ordinal();
    if (p.k() == 3) {
      throughPresent = weighted(THREE[po][1]);
      throughAbsent = weighted(THREE[po][0]);
      return;
    }
    // adjacentPairs[c][d], c >= 1: sum over a of class c of |N(a) ∩ class d| (ordered pairs).
    for (int c = 1; c < CLASSES; c++) {
      long[] acc = adjacentPairs[c];
      acc[0] = acc[1] = acc[2] = acc[3] = 0;
      int cbase = c * words;
      for (int w = 0; w < words; w++) {
        long bits = cm[cbase + w];
        while (bits != 0) {
          int a = (w << 6) + Long.numberOfTrailingZeros(bits);
          bits &= bits - 1;
          int ra = a * words;
          for (int x = 0; x < words; x++) {
            long row = rows[ra + x];
            acc[0] += Long.bitCount(row & cm[x]);
            acc[1] += Long.bitCount(row & cm[words + x]);
            acc[2] += Long.bitCount(row & cm[2 * words + x]);
            acc[3] += Long.bitCount(row & cm[3 * words + x]);
          }
        }
      }
    }
    throughPresent = fourVertexCopies(FOUR[po][1]);
    throughAbsent = fourVertexCopies(FOUR[po][0]);
  }

  /** {@link #computeThrough} for graphs of at most 64 vertices: the same sums on single words. */
  private void computeThroughOneWord(long[] rows, int n, Pattern p, int i, int j) {
    long valid = (n == 64 ? -1L : (1L << n) - 1) & ~(1L << i) & ~(1L << j);
    long ni = rows[i] & valid;
    long nj = rows[j] & valid;
    long c0 = valid & ~(ni | nj);
    long c1 = ni & ~nj;
    long c2 = nj & ~ni;
    long c3 = ni & nj;
    size[0] = Long.bitCount(c0);
    size[1] = Long.bitCount(c1);
    size[2] = Long.bitCount(c2);
    size[3] = Long.bitCount(c3);
    int po = p.ordinal();
    if (p.k() == 3) {
      throughPresent = weighted(THREE[po][1]);
      throughAbsent = weighted(THREE[po][0]);
      return;
    }
    for (int c = 1; c < CLASSES; c++) {
      long bits = c == 1 ? c1 : c == 2 ? c2 : c3;
      long a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      while (bits != 0) {
        long row = rows[Long.numberOfTrailingZeros(bits)];
        bits &= bits - 1;
        a0 += Long.bitCount(row & c0);
        a1 += Long.bitCount(row & c1);
        a2 += Long.bitCount(row & c2);
        a3 += Long.bitCount(row & c3);
      }
      long[] acc = adjacentPairs[c];
      acc[0] = a0;
      acc[1] = a1;
      acc[2] = a2;
      acc[3] = a3;
    }
    throughPresent = fourVertexCopies(FOUR[po][1]);
    throughAbsent = fourVertexCopies(FOUR[po][0]);
  }

  private long weighted(int[] byClass) {
    return byClass[0] * size[0] + byClass[1] * size[1] + byClass[2] * size[2] + byClass[3] * size[3];
  }

  /** Sum over unordered class pairs {c, d} of the adjacent and non-adjacent pairs forming the pattern. */
  private long fourVertexCopies(int[][][] table) {
    long total = 0;
    for (int c = 0; c < CLASSES; c++) {
      for (int d = c; d < CLASSES; d++) {
        int[] t = table[c][d];
        if ((t[0] | t[1]) == 0) {
          continue; // includes {class 0, class 0}: such 4-sets are disconnected
        }
        long adjacent;
        long all;
        if (c == d) {
          adjacent = adjacentPairs[c][c] / 2;
          all = size[c] * (size[c] - 1) / 2;
        } else {
          adjacent = adjacentPairs[d][c]; // d > c >= 0, so d >= 1 has its sums computed
          all = size[c] * size[d];
        }
        total += t[1] * adjacent + t[0] * (all - adjacent);
      }
    }
    return total;
  }
}
