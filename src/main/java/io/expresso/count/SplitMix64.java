package io.expresso.count;

/**
 * The SplitMix64 generator (Steele, Lea, Flood 2014), written out so that a seed gives the same
 * stream on every JVM and Java version — generated datasets and sampled attacks reproduce exactly.
 */
public final class SplitMix64 {

  private long state;

  public SplitMix64(long seed) {
    this.state = seed;
  }

  /** The generator's state: {@code new SplitMix64(state())} continues this stream exactly. */
  public long state() {
    return state;
  }

  public long nextLong() {
    long z = (state += 0x9E3779B97F4A7C15L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Uniform in [0, 1) with 53 random bits. */
  public double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  /**
   * A uniformly random permutation of 0..n−1 (Fisher–Yates, from the last position down): the one
   * shuffle of the code base, so every seeded split, relabeling and epoch order reproduces.
   */
  public int[] permutation(int n) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  /** Uniform in [0, bound), bound > 0, without modulo bias. */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    long limit = (1L << 32) - ((1L << 32) % bound);
    long r;
    do {
      r = nextLong() >>> 32;
    } while (r >= limit);
    return (int) (r % bound);
  }
}
