package io.expresso.wl;

import java.util.Arrays;

/**
 * Names the distinct keys {@code (old colour, hash)} of all cells with dense new colours
 * {@code 0..k-1}, in order of first occurrence: one shared palette for every graph in the
 * refinement. Open addressing on primitive arrays, reused across rounds.
 */
final class Relabeler {

  private int[] keyColour = new int[0];
  private long[] keyHash = new long[0];
  private int[] value = new int[0];
  private int mask;

  /**
   * Writes the new colour of every cell into {@code out} and returns the number of colours.
   * Cells with equal old colour and equal hash get the same new colour; others different ones.
   */
  int relabel(int[] oldColour, long[] hash, int[] out) {
    int cells = oldColour.length;
    ensureCapacity(cells);
    Arrays.fill(value, -1);
    int next = 0;
    for (int i = 0; i < cells; i++) {
      int c = oldColour[i];
      long h = hash[i];
      int slot = (int) Hashing.mix(h * 31 + c) & mask;
      while (true) {
        int v = value[slot];
        if (v < 0) {
          keyColour[slot] = c;
          keyHash[slot] = h;
          value[slot] = next;
          out[i] = next++;
          break;
        }
        if (keyColour[slot] == c && keyHash[slot] == h) {
          out[i] = v;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    return next;
  }

  private void ensureCapacity(int cells) {
    int size = Integer.highestOneBit(Math.max(16, cells * 2 - 1)) << 1;
    if (value.length < size) {
      keyColour = new int[size];
      keyHash = new long[size];
      value = new int[size];
      mask = size - 1;
    }
  }
}
