package io.expresso.stats;

/**
 * Two q × d embedding arrays paired row by row: row i of {@code first} is compared with row i of
 * {@code second}. The arrays are not copied; do not change them afterwards.
 *
 * @param first q embeddings (row i: relabeling i of the first graph)
 * @param second q embeddings of the second graph's relabelings, same shape
 */
public record PairedEmbeddings(double[][] first, double[][] second) {

  public PairedEmbeddings {
    HotellingT2.differences(first, second); // validates shape and finiteness, naming the culprit
  }

  /** q, the number of paired rows. */
  public int q() {
    return first.length;
  }

  /** d, the embedding dimension. */
  public int d() {
    return first[0].length;
  }

  /** T² of the paired differences under {@code convention}. */
  public double t2(Convention convention) {
    return HotellingT2.of(first, second, convention);
  }
}
