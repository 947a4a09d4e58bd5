package io.expresso.count;

/**
 * Exact pattern count after flipping one vertex pair, given the count before. Implementations
 * differ only in speed: {@link DeltaFlipCounter} (fast) and {@link EgoNetFlipCounter} (reference).
 * Implementations may keep scratch space: use one instance per thread.
 */
public interface FlipCounter {

  /**
   * C(G̃, p) where G̃ is {@code g} with {i, j} flipped and {@code count} = C(g, p). {@code g} is
   * left unchanged.
   */
  long countAfterFlip(MutableGraph g, Pattern p, long count, int i, int j);
}
