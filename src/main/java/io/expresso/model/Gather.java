package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;

/**
 * Gather-based message passing and pooling on flat node tables. An index table {@code K×m} names,
 * for each of K targets, up to m source rows; the value {@code N} (one past the last row) is
 * padding and reads a zero row, so ragged neighbourhoods batch without masks.
 */
final class Gather {

  private Gather() {}

  /** {@code Σ_j h[idx[k, j]]} for every k: a K×f table (sum aggregation / sum pooling). */
  static NDArray sumRows(NDArray h, NDArray idx) {
    long f = h.getShape().get(1);
    long k = idx.getShape().get(0);
    long m = idx.getShape().get(1);
    NDArray padded = h.concat(h.getManager().zeros(new Shape(1, f), h.getDataType()), 0);
    NDArray flat = idx.reshape(-1, 1).broadcast(new Shape(k * m, f));
    return padded.gather(flat, 0).reshape(k, m, f).sum(new int[] {1});
  }
}
