package io.expresso.iso;

/**
 * An ordered partition of the vertices {@code 0..n-1}, stored as positions: cells are contiguous
 * position ranges of {@link #lab}, and a vertex's cell is named by the position where the cell
 * starts. The order of the cells carries meaning (it is what makes the final labelling
 * canonical); the order of vertices inside a cell does not.
 */
final class Partition {

  final int n;
  /** Position to vertex. */
  final int[] lab;
  /** Vertex to position. */
  final int[] pos;
  /** Vertex to the start position of its cell. */
  final int[] cellOf;
  /** Cell start position to cell length; only meaningful at cell starts. */
  final int[] cellLen;
  /** Number of cells. */
  int cells;

  Partition(int n) {
    this.n = n;
    this.lab = new int[n];
    this.pos = new int[n];
    this.cellOf = new int[n];
    this.cellLen = new int[n];
  }

  /**
   * The partition whose cells are the colour classes of {@code colours}, ordered by increasing
   * colour value (so equal colour values land in equal positions in every graph).
   */
  static Partition byColour(long[] colours) {
    int n = colours.length;
    Partition p = new Partition(n);
    boolean uniform = true;
    for (int v = 1; v < n && uniform; v++) {
      uniform = colours[v] == colours[0];
    }
    if (uniform) { // the common case: one cell, no sorting
      for (int v = 0; v < n; v++) {
        p.lab[v] = v;
        p.pos[v] = v;
      }
      if (n > 0) {
        p.cellLen[0] = n;
        p.cells = 1;
      }
      return p;
    }
    Integer[] order = new Integer[n];
    for (int v = 0; v < n; v++) {
      order[v] = v;
    }
    java.util.Arrays.sort(order, (a, b) -> Long.compare(colours[a], colours[b]));
    int start = 0;
    for (int i = 0; i < n; i++) {
      int v = order[i];
      p.lab[i] = v;
      p.pos[v] = i;
      if (i > 0 && colours[v] != colours[order[i - 1]]) {
        p.cellLen[start] = i - start;
        p.cells++;
        start = i;
      }
      p.cellOf[v] = start;
    }
    if (n > 0) {
      p.cellLen[start] = n - start;
      p.cells++;
    }
    return p;
  }

  void copyFrom(Partition o) {
    System.arraycopy(o.lab, 0, lab, 0, n);
    System.arraycopy(o.pos, 0, pos, 0, n);
    System.arraycopy(o.cellOf, 0, cellOf, 0, n);
    System.arraycopy(o.cellLen, 0, cellLen, 0, n);
    cells = o.cells;
  }

  boolean discrete() {
    return cells == n;
  }

  /**
   * Splits vertex {@code v} off its cell into a singleton placed at the cell's first position;
   * returns that position (the start of the new singleton cell).
   */
  int individualize(int v) {
    int start = cellOf[v];
    int len = cellLen[start];
    if (len == 1) {
      return start;
    }
    int first = lab[start];
    int at = pos[v];
    lab[at] = first;
    pos[first] = at;
    lab[start] = v;
    pos[v] = start;
    cellLen[start] = 1;
    cellLen[start + 1] = len - 1;
    for (int i = start + 1; i < start + len; i++) {
      cellOf[lab[i]] = start + 1;
    }
    cells++;
    return start;
  }
}
