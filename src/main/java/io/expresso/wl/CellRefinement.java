package io.expresso.wl;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Colour refinement of "cells" (vertices for 1-WL, ordered pairs for 2-FWL, triples for 3-FWL)
 * to the stable partition, over the disjoint union of every graph compared, so that all share
 * one palette.
 *
 * <p>Fast rounds replace each cell's signature (the multiset of colour tuples around it) by a
 * commutative 64-bit hash and split classes by (old colour, hash). A hash is a function of the
 * signature, so a fast round never splits cells whose exact signatures agree; a collision can
 * only keep together cells that exact refinement would split. By induction every fast partition
 * is therefore a coarsening of the exact partition after the same number of rounds, and:
 *
 * <ul>
 *   <li>a histogram difference seen in a fast partition is a real one (early exit is sound);
 *   <li>when a fast round splits nothing, one exact check decides. If every class is stable
 *       under exact signatures, the partition is a stable refinement of the initial colouring,
 *       hence at least as fine as the exact stable partition (the coarsest such), and also a
 *       coarsening of it: the two are equal. Otherwise a collision happened, and refinement goes
 *       on with exact signature comparison until stable (from a coarsening of the exact
 *       partition that refines the initial one, that reaches the same stable partition).
 * </ul>
 *
 * <p>Hot paths work on int/long arrays; the exact rounds (after a collision only) sort boxed
 * cell indices for simplicity.
 */
abstract class CellRefinement {

  /** Decides from the current colouring whether the graphs compared already differ. */
  interface Verdict {
    boolean differs(int[] colour, int classes);
  }

  protected final Hashing hashing;
  protected final int cells;
  protected int[] colour;
  protected int classes;
  private final Relabeler relabeler = new Relabeler();
  private int rounds;
  private boolean exactFallback;

  protected CellRefinement(int[] initial, Hashing hashing) {
    this.hashing = hashing;
    this.cells = initial.length;
    this.colour = new int[cells];
    this.classes = relabeler.relabel(initial, new long[cells], colour);
  }

  /** Writes the 64-bit hash of every cell's signature under the current colouring. */
  abstract void hashRound(long[] hashes);

  /**
   * Writes the exact signature of {@code cell} (one key per neighbouring tuple, any order) into
   * {@code buf} and returns its length.
   */
  abstract int signature(int cell, long[] buf);

  /** An upper bound on {@link #signature} lengths. */
  abstract int maxSignatureLength();

  /** As {@link #refine(Verdict, BooleanSupplier)}, never cancelled. */
  final boolean refine(Verdict verdict) {
    return refine(verdict, () -> false);
  }

  /**
   * Refines until the partition is stable or {@code verdict} reports a difference.
   *
   * @param cancelled checked before every round
   * @return true if the verdict found the graphs different, false if the stable partition
   *     was reached without a difference
   * @throws CancellationException once {@code cancelled} is true
   */
  final boolean refine(Verdict verdict, BooleanSupplier cancelled) {
    long[] hashes = new long[cells];
    int[] next = new int[cells];
    boolean exact = false;
    while (true) {
      if (verdict.differs(colour, classes)) {
        return true;
      }
      if (cancelled.getAsBoolean()) {
        throw new CancellationException("colour refinement of " + cells + " cells cancelled after " + rounds + " rounds");
      }
      int k;
      if (!exact) {
        hashRound(hashes);
        k = relabeler.relabel(colour, hashes, next);
        if (k == classes) {
          if (isStable()) {
            return false;
          }
          exact = true;
          exactFallback = true;
          k = exactRound(next);
        }
      } else {
        k = exactRound(next);
        if (k == classes) {
          return false;
        }
      }
      int[] t = colour;
      colour = next;
      next = t;
      classes = k;
      rounds++;
    }
  }

  /** The current colouring (shared with this object: read only). */
  final int[] colours() {
    return colour;
  }

  final int classes() {
    return classes;
  }

  /** Refinement rounds that split at least one class. */
  final int rounds() {
    return rounds;
  }

  /** True if a hash collision was detected and exact rounds took over. */
  final boolean usedExactFallback() {
    return exactFallback;
  }

  /**
   * True if no class would split under exact signatures: every cell's signature equals, as a
   * multiset, that of its class's first cell. The representative's keys are counted in a small
   * open-addressing table; a member takes its keys out (a missing key or a count below zero is a
   * difference) and puts them back, so each comparison costs O(signature length), no sorting.
   * Subclasses may check faster.
   */
  boolean isStable() {
    int len = maxSignatureLength();
    long[] repSig = new long[len];
    long[] sig = new long[len];
    KeyCounts table = new KeyCounts(len);
    // Cells grouped by class, so each representative's table is built once.
    int[] start = new int[classes + 1];
    for (int i = 0; i < cells; i++) {
      start[colour[i] + 1]++;
    }
    for (int c = 0; c < classes; c++) {
      start[c + 1] += start[c];
    }
    int[] order = new int[cells];
    int[] fill = Arrays.copyOf(start, classes);
    for (int i = 0; i < cells; i++) {
      order[fill[colour[i]]++] = i;
    }
    for (int c = 0; c < classes; c++) {
      if (start[c + 1] - start[c] < 2) {
        continue;
      }
      table.clear();
      int repLen = signature(order[start[c]], repSig);
      for (int j = 0; j < repLen; j++) {
        table.add(repSig[j], 1);
      }
      for (int m = start[c] + 1; m < start[c + 1]; m++) {
        int l = signature(order[m], sig);
        if (l != repLen) {
          return false;
        }
        int taken = 0;
        boolean same = true;
        while (taken < l && (same = table.takeOne(sig[taken]))) {
          taken++;
        }
        if (!same) {
          return false;
        }
        for (int j = 0; j < l; j++) {
          table.add(sig[j], 1);
        }
      }
    }
    return true;
  }

  /** Counts per 64-bit key; slots belong to the current generation only, so clearing is O(1). */
  private static final class KeyCounts {
    private final long[] keys;
    private final int[] counts;
    private final int[] stamp;
    private final int mask;
    private final int shift;
    private int generation = 1;

    KeyCounts(int maxKeys) {
      int size = Integer.highestOneBit(Math.max(8, 2 * maxKeys)) << 1;
      keys = new long[size];
      counts = new int[size];
      stamp = new int[size];
      mask = size - 1;
      shift = 64 - Integer.numberOfTrailingZeros(size);
    }

    void clear() {
      generation++;
    }

    private int slot(long key) {
      int s = (int) ((key * 0x9E3779B97F4A7C15L) >>> shift); // Fibonacci hashing
      while (stamp[s] == generation && keys[s] != key) {
        s = (s + 1) & mask;
      }
      return s;
    }

    void add(long key, int delta) {
      int s = slot(key);
      if (stamp[s] != generation) {
        stamp[s] = generation;
        keys[s] = key;
        counts[s] = 0;
      }
      counts[s] += delta;
    }

    /** Removes one occurrence of key; false if there is none left. */
    boolean takeOne(long key) {
      int s = slot(key);
      if (stamp[s] != generation || counts[s] == 0) {
        return false;
      }
      counts[s]--;
      return true;
    }
  }

  private int sortedSignature(int cell, long[] buf) {
    int l = signature(cell, buf);
    Arrays.sort(buf, 0, l);
    return l;
  }

  /** One exact round: new colour by (old colour, sorted signature); returns the colour count. */
  private int exactRound(int[] out) {
    int len = maxSignatureLength();
    long[] sigs = new long[Math.multiplyExact(cells, len)];
    int[] lengths = new int[cells];
    long[] buf = new long[len];
    for (int i = 0; i < cells; i++) {
      int l = sortedSignature(i, buf);
      System.arraycopy(buf, 0, sigs, i * len, l);
      lengths[i] = l;
    }
    Integer[] order = new Integer[cells];
    for (int i = 0; i < cells; i++) {
      order[i] = i;
    }
    java.util.Comparator<Integer> bySignature = (a, b) -> {
      int d = Integer.compare(colour[a], colour[b]);
      if (d != 0) {
        return d;
      }
      return Arrays.compare(sigs, a * len, a * len + lengths[a], sigs, b * len, b * len + lengths[b]);
    };
    Arrays.sort(order, bySignature);
    int k = 0;
    for (int j = 0; j < cells; j++) {
      if (j > 0 && bySignature.compare(order[j - 1], order[j]) != 0) {
        k++;
      }
      out[order[j]] = k;
    }
    return cells == 0 ? 0 : k + 1;
  }
}
