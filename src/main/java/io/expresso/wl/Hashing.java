package io.expresso.wl;

/**
 * The random values that fast refinement rounds hash colours with. Hashes only ever merge
 * colours that exact refinement would keep apart (never the reverse), and every partition the
 * hash rounds call stable is checked exactly ({@link CellRefinement}), so a collision costs time,
 * never correctness. {@link #DEGENERATE} maps everything to 0 to prove that in tests.
 */
final class Hashing {

  /** The hashing used in production: a fixed seed, so runs are reproducible. */
  static final Hashing DEFAULT = new Hashing(0x5DEECE66DL, false);

  /** Every value 0: every hash round collides completely; only the exact fallback refines. */
  static final Hashing DEGENERATE = new Hashing(0, true);

  private final long seed;
  private final boolean degenerate;

  Hashing(long seed, boolean degenerate) {
    this.seed = seed;
    this.degenerate = degenerate;
  }

  /** A pseudo-random 64-bit value for {@code key} in the stream {@code stream}. */
  long value(int stream, long key) {
    if (degenerate) {
      return 0;
    }
    return mix(seed + 0x9E3779B97F4A7C15L * (key + 1) + 0xD1B54A32D192ED03L * (stream + 1));
  }

  /** A table of {@link #value}s for keys {@code 0..size-1}. */
  long[] table(int stream, int size) {
    long[] t = new long[size];
    for (int i = 0; i < size; i++) {
      t[i] = value(stream, i);
    }
    return t;
  }

  /** The SplitMix64 finaliser: a bijective mixing of 64 bits. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
