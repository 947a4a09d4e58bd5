package io.expresso.wl;

import java.util.Arrays;

/** Comparisons of colour histograms of parts of a refined union (all in one shared palette). */
final class Histograms {

  private Histograms() {}

  /** True if cells {@code [a, a+size)} and {@code [b, b+size)} have different colour histograms. */
  static boolean differ(int[] colour, int classes, int a, int b, int size) {
    int[] count = new int[classes];
    for (int i = 0; i < size; i++) {
      count[colour[a + i]]++;
      count[colour[b + i]]--;
    }
    for (int c : count) {
      if (c != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * For a union of {@code 2·copies} parts of {@code size} cells each, the first {@code copies}
   * from one graph and the rest from the other: true if the multiset of the first half's
   * histograms differs from the multiset of the second half's.
   */
  static boolean multisetsDiffer(int[] colour, int copies, int size) {
    int[][] first = new int[copies][];
    int[][] second = new int[copies][];
    for (int p = 0; p < copies; p++) {
      first[p] = sortedPart(colour, p * size, size);
      second[p] = sortedPart(colour, (copies + p) * size, size);
    }
    Arrays.sort(first, Arrays::compare);
    Arrays.sort(second, Arrays::compare);
    return !Arrays.deepEquals(first, second);
  }

  /** A part's histogram as its sorted list of colours. */
  private static int[] sortedPart(int[] colour, int from, int size) {
    int[] h = Arrays.copyOfRange(colour, from, from + size);
    Arrays.sort(h);
    return h;
  }
}
