package io.expresso.iso;

import io.expresso.graph.Graph;
import java.util.Arrays;

/**
 * Refines an ordered partition to the coarsest equitable partition below it (1-WL colour
 * refinement), splitting cells in a labelling-independent order, and returns a hash of the trace
 * of splits. Isomorphic (graph, partition) pairs give equal partitions up to the isomorphism and
 * equal trace hashes, so the hash is a node invariant for the search tree.
 *
 * <p>Hot loop: CSR arrays and reusable scratch arrays, no allocation per call.
 */
final class Refiner {

  private final int n;
  private final int[] off;
  private final int[] adj;
  private final int[] count;
  private final int[] touched;
  private final int[] touchedCells;
  private final int[] touchedIn;
  private final int[] fill;
  private final boolean[] inQueue;
  private final int[] queue;
  private final long[] keys;

  Refiner(Graph g) {
    this.n = g.n();
    this.off = g.csrOffsets();
    this.adj = g.csrTargets();
    this.count = new int[n];
    this.touched = new int[n];
    this.touchedCells = new int[n];
    this.touchedIn = new int[n];
    this.fill = new int[n];
    this.inQueue = new boolean[n];
    this.queue = new int[n];
    this.keys = new long[n];
  }

  /** Refines with every cell as an initial splitter (used at the root). */
  long refineAll(Partition p) {
    int q = 0;
    for (int s = 0; s < n; s += p.cellLen[s]) {
      queue[q++] = s;
      inQueue[s] = true;
    }
    return refine(p, q);
  }

  /** Refines after individualization, with the singleton cell at {@code start} as the splitter. */
  long refineFrom(Partition p, int start) {
    queue[0] = start;
    inQueue[start] = true;
    return refine(p, 1);
  }

  private long refine(Partition p, int queued) {
    final int[] lab = p.lab;
    final int[] cellOf = p.cellOf;
    final int[] cellLen = p.cellLen;
    long h = 0x9E3779B97F4A7C15L;
    // Circular FIFO over cell starts; each start is queued at most once at a time, so n slots do.
    int head = 0;
    int size = queued;
    while (size > 0) {
      int s = queue[head];
      head = head + 1 == n ? 0 : head + 1;
      size--;
      inQueue[s] = false;
      if (p.cells == n) {
        continue; // discrete: drain the queue flags
      }
      int len = cellLen[s];
      int nt = 0;
      for (int i = s; i < s + len; i++) {
        int w = lab[i];
        for (int k = off[w], e = off[w + 1]; k < e; k++) {
          int u = adj[k];
          if (count[u]++ == 0) {
            touched[nt++] = u;
          }
        }
      }
      // Group touched vertices by cell, moving each to the end segment of its cell.
      int nc = 0;
      for (int t = 0; t < nt; t++) {
        int u = touched[t];
        int c = cellOf[u];
        if (touchedIn[c] == 0) {
          touchedCells[nc++] = c;
          fill[c] = c + cellLen[c];
        }
        touchedIn[c]++;
        int dest = --fill[c];
        int at = p.pos[u];
        int other = lab[dest];
        lab[at] = other;
        p.pos[other] = at;
        lab[dest] = u;
        p.pos[u] = dest;
      }
      if (nc > 1) {
        Arrays.sort(touchedCells, 0, nc);
      }
      h = mix(h, s);
      for (int ci = 0; ci < nc; ci++) {
        int c = touchedCells[ci];
        int l = cellLen[c];
        int t = touchedIn[c];
        touchedIn[c] = 0;
        if (l == 1) {
          h = mix(h, ((long) c << 32) | count[lab[c]]);
          continue;
        }
        // The touched vertices occupy [seg, c + l); sort them by count. Untouched ones (count 0)
        // stay in front as the first fragment.
        int seg = c + l - t;
        for (int i = 0; i < t; i++) {
          int v = lab[seg + i];
          keys[i] = ((long) count[v] << 32) | v;
        }
        if (t < 12) {
          for (int i = 1; i < t; i++) {
            long key = keys[i];
            int j = i - 1;
            while (j >= 0 && keys[j] > key) {
              keys[j + 1] = keys[j];
              j--;
            }
            keys[j + 1] = key;
          }
        } else {
          Arrays.sort(keys, 0, t);
        }
        if (t == l && (keys[0] >>> 32) == (keys[t - 1] >>> 32)) {
          h = mix(h, ((long) c << 32) | (keys[0] >>> 32));
          continue; // all equal: no split
        }
        boolean wasQueued = inQueue[c];
        int largestStart = c;
        int largestLen = 0;
        if (seg > c) {
          cellLen[c] = seg - c;
          largestLen = seg - c;
          h = mix(h, ((long) c << 40) ^ ((long) (seg - c) << 20));
        }
        int fragStart = seg;
        for (int i = 0; i < t; i++) {
          int v = (int) keys[i];
          lab[seg + i] = v;
          p.pos[v] = seg + i;
          boolean endsRun = i == t - 1 || (keys[i + 1] >>> 32) != (keys[i] >>> 32);
          if (endsRun) {
            int end = seg + i + 1;
            int fragLen = end - fragStart;
            for (int j = fragStart; j < end; j++) {
              cellOf[lab[j]] = fragStart;
            }
            cellLen[fragStart] = fragLen;
            h = mix(h, ((long) fragStart << 40) ^ ((long) fragLen << 20) ^ (keys[i] >>> 32));
            if (fragLen > largestLen) {
              largestLen = fragLen;
              largestStart = fragStart;
            }
            if (fragStart != c) {
              p.cells++;
            }
            fragStart = end;
          }
        }
        // Hopcroft: if the cell was waiting, all fragments must wait; otherwise all but the
        // (first) largest suffice.
        for (int f = c; f < c + l; f += cellLen[f]) {
          if (wasQueued ? f != c : f != largestStart) {
            int tail = head + size;
            queue[tail >= n ? tail - n : tail] = f;
            size++;
            inQueue[f] = true;
          }
        }
      }
      for (int t = 0; t < nt; t++) {
        count[touched[t]] = 0;
      }
    }
    return mix(h, p.cells);
  }

  static long mix(long h, long x) {
    h ^= x + 0x9E3779B97F4A7C15L + (h << 6) + (h >>> 2);
    h *= 0xBF58476D1CE4E5B9L;
    return h ^ (h >>> 31);
  }
}
