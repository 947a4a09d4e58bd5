package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.function.BooleanSupplier;

/**
 * {@code 3-wl} as BREC uses the name: the 2-dimensional folklore WL test (2-FWL, as strong as
 * 3-WL). Colours live on ordered pairs (u,v), starting from their atomic type (equal, adjacent,
 * non-adjacent); a round gives (u,v) the multiset over w of (colour(u,w), colour(w,v)).
 *
 * <p>Both graphs are refined in lockstep in one palette and compared after every round, so a
 * difference ends the run early. A fast round is two matrix products: with random values X, Y
 * per colour, hash(u,v) = Σ_w X[c(u,w)]·Y[c(w,v)] (mod 2⁶⁴), an n³ loop on long arrays that the
 * JIT vectorises. Exactness is kept by {@link CellRefinement}.
 */
public final class TwoFwl implements PairDistinguisher {

  /** Largest graph accepted: n² cells per graph, n³ work per round. */
  public static final int MAX_VERTICES = 256;

  private final Hashing hashing;

  public TwoFwl() {
    this(Hashing.DEFAULT);
  }

  TwoFwl(Hashing hashing) {
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "3-wl";
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    int n = g.n();
    if (n > MAX_VERTICES) {
      throw new IllegalArgumentException(
          "3-wl (2-FWL) handles graphs of at most " + MAX_VERTICES + " vertices; got " + n);
    }
    Pairs r = new Pairs(g, h, hashing);
    int nn = n * n;
    return r.refine((colour, classes) -> Histograms.differ(colour, classes, 0, nn, nn), cancelled);
  }

  /** The pair cells of G (first n² cells) and H (next n²), row-major: cell (u,v) = u·n + v. */
  static final class Pairs extends CellRefinement {
    private final int n;
    private final int nn;

    Pairs(Graph g, Graph h, Hashing hashing) {
      super(atomicTypes(g, h), hashing);
      this.n = g.n();
      this.nn = n * n;
    }

    private static int[] atomicTypes(Graph g, Graph h) {
      int n = g.n();
      int[] c = new int[2 * n * n];
      Graph[] graphs = {g, h};
      for (int p = 0; p < 2; p++) {
        for (int u = 0; u < n; u++) {
          for (int v = 0; v < n; v++) {
            c[p * n * n + u * n + v] = graphs[p].atomicType(u, v);
          }
        }
      }
      return c;
    }

    @Override
    void hashRound(long[] hashes) {
      long[] x = hashing.table(0, classes);
      long[] y = hashing.table(1, classes);
      long[] ym = new long[nn];
      long[] acc = new long[n];
      for (int base = 0; base < cells; base += nn) {
        for (int i = 0; i < nn; i++) {
          ym[i] = y[colour[base + i]];
        }
        for (int u = 0; u < n; u++) {
          java.util.Arrays.fill(acc, 0);
          int rowU = base + u * n;
          for (int w = 0; w < n; w++) {
            long xu = x[colour[rowU + w]];
            int rowW = w * n;
            for (int v = 0; v < n; v++) {
              acc[v] += xu * ym[rowW + v];
            }
          }
          System.arraycopy(acc, 0, hashes, rowU, n);
        }
      }
    }

    @Override
    int signature(int cell, long[] buf) {
      int base = cell / nn * nn;
      int u = (cell - base) / n;
      int v = (cell - base) % n;
      for (int w = 0; w < n; w++) {
        buf[w] = ((long) colour[base + u * n + w] << 32) | colour[base + w * n + v];
      }
      return n;
    }

    @Override
    int maxSignatureLength() {
      return n;
    }

    /**
     * With few colours, stability is checked by exact counting: for colours a, b the number of
     * w with c(u,w) = a and c(w,v) = b is a popcount of a row bitset and a column bitset, and
     * every class must see the same count for every (a, b).
     */
    @Override
    boolean isStable() {
      int words = (n + 63) >>> 6;
      if ((long) classes * classes * words > 4L * n) {
        return super.isStable();
      }
      int graphs = cells / Math.max(1, nn);
      // rows[((a * graphs + p) * n + u) * words + word]: bits w with c(u,w) = a in graph p.
      long[] rows = new long[classes * graphs * n * words];
      long[] cols = new long[classes * graphs * n * words];
      for (int p = 0; p < graphs; p++) {
        for (int u = 0; u < n; u++) {
          for (int w = 0; w < n; w++) {
            int a = colour[p * nn + u * n + w];
            rows[((a * graphs + p) * n + u) * words + (w >>> 6)] |= 1L << w;
            cols[((a * graphs + p) * n + w) * words + (u >>> 6)] |= 1L << u;
          }
        }
      }
      int[] rep = new int[classes];
      java.util.Arrays.fill(rep, -1);
      for (int i = 0; i < cells; i++) {
        if (rep[colour[i]] < 0) {
          rep[colour[i]] = i;
        }
      }
      int[] repCount = new int[classes];
      for (int a = 0; a < classes; a++) {
        for (int b = 0; b < classes; b++) {
          for (int p = 0; p < graphs; p++) {
            for (int u = 0; u < n; u++) {
              int ro = ((a * graphs + p) * n + u) * words;
              for (int v = 0; v < n; v++) {
                int co = ((b * graphs + p) * n + v) * words;
                int count = 0;
                for (int k = 0; k < words; k++) {
                  count += Long.bitCount(rows[ro + k] & cols[co + k]);
                }
                int i = p * nn + u * n + v;
                int c = colour[i];
                if (rep[c] == i) {
                  repCount[c] = count;
                } else if (repCount[c] != count) {
                  return false;
                }
              }
            }
          }
        }
      }
      return true;
    }
  }
}
