package io.expresso.wl;

import io.expresso.graph.Graph;
import java.util.function.BooleanSupplier;

/**
 * 1-WL colour refinement of vertices, optionally with arc colours: a vertex's signature is the
 * multiset of (arc colour, neighbour colour) over its arcs. The input is one CSR graph, normally
 * the disjoint union of the graphs compared.
 */
final class VertexRefinement extends CellRefinement {

  private final int[] offsets;
  private final int[] targets;
  private final int[] arcColour; // null: every arc has colour 0
  private final int arcColours;
  private final int maxDegree;

  /**
   * @param offsets CSR offsets (length n+1)
   * @param targets CSR targets
   * @param arcColour colour of each arc, values {@code >= 0}, or null for uncoloured arcs
   * @param initial initial vertex colours (any ints; equal means same colour)
   */
  VertexRefinement(int[] offsets, int[] targets, int[] arcColour, int[] initial, Hashing hashing) {
    super(initial, hashing);
    this.offsets = offsets;
    this.targets = targets;
    this.arcColour = arcColour;
    int maxArc = 0;
    if (arcColour != null) {
      for (int a : arcColour) {
        maxArc = Math.max(maxArc, a);
      }
    }
    this.arcColours = maxArc + 1;
    int d = 0;
    for (int v = 0; v + 1 < offsets.length; v++) {
      d = Math.max(d, offsets[v + 1] - offsets[v]);
    }
    this.maxDegree = d;
  }

  /** The disjoint union of {@code graphs} (vertex ids shifted in order) with initial colours. */
  static VertexRefinement union(Graph[] graphs, int[] initial, Hashing hashing) {
    int n = 0;
    int arcs = 0;
    for (Graph g : graphs) {
      n += g.n();
      arcs += 2 * g.m();
    }
    int[] offsets = new int[n + 1];
    int[] targets = new int[arcs];
    int base = 0;
    int a = 0;
    for (Graph g : graphs) {
      int[] off = g.csrOffsets();
      int[] tgt = g.csrTargets();
      for (int v = 0; v < g.n(); v++) {
        for (int k = off[v]; k < off[v + 1]; k++) {
          targets[a++] = base + tgt[k];
        }
        offsets[base + v + 1] = a;
      }
      base += g.n();
    }
    return new VertexRefinement(offsets, targets, null, initial, hashing);
  }

  /**
   * Whether 1-WL (with the given initial colours, in one palette) distinguishes {@code g} and
   * {@code h}: refines their disjoint union and compares the two halves' histograms.
   */
  static boolean distinguishes(Graph g, Graph h, int[] initialG, int[] initialH, Hashing hashing,
      BooleanSupplier cancelled) {
    if (g.n() != h.n()) {
      return true;
    }
    int n = g.n();
    int[] initial = new int[2 * n];
    System.arraycopy(initialG, 0, initial, 0, n);
    System.arraycopy(initialH, 0, initial, n, n);
    VertexRefinement r = union(new Graph[] {g, h}, initial, hashing);
    return r.refine((colour, classes) -> Histograms.differ(colour, classes, 0, n, n), cancelled);
  }

  @Override
  void hashRound(long[] hashes) {
    long[] vertexValue = hashing.table(0, classes);
    if (arcColour == null) {
      for (int v = 0; v < cells; v++) {
        long h = 0;
        for (int k = offsets[v]; k < offsets[v + 1]; k++) {
          h += vertexValue[colour[targets[k]]];
        }
        hashes[v] = h;
      }
    } else {
      long[] arcValue = hashing.table(1, arcColours);
      for (int v = 0; v < cells; v++) {
        long h = 0;
        for (int k = offsets[v]; k < offsets[v + 1]; k++) {
          h += vertexValue[colour[targets[k]]] * arcValue[arcColour[k]];
        }
        hashes[v] = h;
      }
    }
  }

  @Override
  int signature(int cell, long[] buf) {
    int l = 0;
    for (int k = offsets[cell]; k < offsets[cell + 1]; k++) {
      long arc = arcColour == null ? 0 : arcColour[k];
      buf[l++] = (arc << 32) | colour[targets[k]];
    }
    return l;
  }

  @Override
  int maxSignatureLength() {
    return maxDegree;
  }
}
