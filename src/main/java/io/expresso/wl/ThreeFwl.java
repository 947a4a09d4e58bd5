package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.function.BooleanSupplier;

/**
 * {@code 4-wl}: the 3-dimensional folklore WL test (3-FWL, as strong as 4-WL), for small graphs.
 * Colours live on ordered triples (u,v,x), starting from their atomic type (which entries are
 * equal, which pairs adjacent); a round gives (u,v,x) the multiset over w of
 * (c(w,v,x), c(u,w,x), c(u,v,w)). n³ cells and n⁴ work per round, so graphs above
 * {@value #MAX_VERTICES} vertices are refused.
 */
public final class ThreeFwl implements PairDistinguisher {

  /** Largest graph accepted. */
  public static final int MAX_VERTICES = 40;

  private final Hashing hashing;

  public ThreeFwl() {
    this(Hashing.DEFAULT);
  }

  ThreeFwl(Hashing hashing) {
    this.hashing = hashing;
  }

  @Override
  public String name() {
    return "4-wl";
  }

  @Override
  public boolean distinguishes(Graph g, Graph h, BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    int n = g.n();
    if (n > MAX_VERTICES) {
      throw new IllegalArgumentException(
          "4-wl (3-FWL) handles graphs of at most " + MAX_VERTICES + " vertices; got " + n);
    }
    Triples r = new Triples(g, h, hashing);
    int size = n * n * n;
    return r.refine((colour, classes) -> Histograms.differ(colour, classes, 0, size, size), cancelled);
  }

  /** Triple cells of G then H: cell (u,v,x) = (u·n + v)·n + x. */
  static final class Triples extends CellRefinement {
    private static final int KEY_BITS = 21;
    private final int n;
    private final int size;

    Triples(Graph g, Graph h, Hashing hashing) {
      super(atomicTypes(g, h), hashing);
      this.n = g.n();
      this.size = n * n * n;
    }

    private static int pairType(Graph g, int a, int b) {
      return a == b ? 0 : g.adjacent(a, b) ? 1 : 2;
    }

    private static int[] atomicTypes(Graph g, Graph h) {
      int n = g.n();
      int size = n * n * n;
      int[] c = new int[2 * size];
      Graph[] graphs = {g, h};
      for (int p = 0; p < 2; p++) {
        Graph gr = graphs[p];
        for (int u = 0; u < n; u++) {
          for (int v = 0; v < n; v++) {
            for (int x = 0; x < n; x++) {
              c[p * size + (u * n + v) * n + x] =
                  pairType(gr, u, v) * 9 + pairType(gr, u, x) * 3 + pairType(gr, v, x);
            }
          }
        }
      }
      return c;
    }

    @Override
    void hashRound(long[] hashes) {
      long[] xv = hashing.table(0, classes);
      long[] yv = hashing.table(1, classes);
      long[] zv = hashing.table(2, classes);
      long[] xm = new long[size];
      long[] ym = new long[size];
      long[] acc = new long[n];
      for (int base = 0; base < cells; base += size) {
        for (int i = 0; i < size; i++) {
          xm[i] = xv[colour[base + i]];
          ym[i] = yv[colour[base + i]];
        }
        for (int u = 0; u < n; u++) {
          for (int v = 0; v < n; v++) {
            java.util.Arrays.fill(acc, 0);
            int uv = (u * n + v) * n;
            for (int w = 0; w < n; w++) {
              long z = zv[colour[base + uv + w]];
              int wv = (w * n + v) * n; // (w,v,x) for x = 0..n-1
              int uw = (u * n + w) * n; // (u,w,x)
              for (int x = 0; x < n; x++) {
                acc[x] += xm[wv + x] * ym[uw + x] * z;
              }
            }
            System.arraycopy(acc, 0, hashes, base + uv, n);
          }
        }
      }
    }

    @Override
    int signature(int cell, long[] buf) {
      int base = cell / size * size;
      int t = cell - base;
      int x = t % n;
      int v = (t / n) % n;
      int u = t / (n * n);
      for (int w = 0; w < n; w++) {
        long a = colour[base + (w * n + v) * n + x];
        long b = colour[base + (u * n + w) * n + x];
        long c = colour[base + (u * n + v) * n + w];
        buf[w] = (a << (2 * KEY_BITS)) | (b << KEY_BITS) | c;
      }
      return n;
    }

    @Override
    int maxSignatureLength() {
      return n;
    }
  }
}
