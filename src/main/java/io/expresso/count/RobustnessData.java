package io.expresso.count;

import java.util.Locale;

/**
 * The datasets of Campi et al. §6: stochastic-block-model graphs for the attacks (30 nodes, three
 * communities of 10, p_in 0.2 / 0.3 / 0.4, p_out 0.1) and Erdős–Rényi graphs on 10 nodes for the
 * out-of-distribution study (d1: p = 0.3, d2: p = 0.8), each split 30% / 20% / 50% at random.
 * The paper uses 5,000 graphs per dataset; smaller sizes keep the same generators and split.
 *
 * <p>Graph r of a dataset is drawn with seed {@code seed + r}; the split permutation uses a
 * seed derived from the dataset seed, so one seed fixes graphs, counts and split.
 */
public final class RobustnessData {

  /** The paper's split: 30% train, 20% validation, 50% test. */
  public static final double TRAIN = 0.3;
  public static final double VALIDATION = 0.2;
  public static final double ER_IN = 0.3;
  public static final double ER_OOD = 0.8;
  public static final int ER_NODES = 10;

  private RobustnessData() {}

  /** {@code size} SBM graphs of the paper's model, counted and split. */
  public static CountingSplit sbm(int size, long seed) {
    return CountingSplit.of("sbm", CountingDataset.generate(size, seed, RandomGraphs::paperSbm),
        TRAIN, VALIDATION, splitSeed(seed));
  }

  /** {@code size} G(10, p) graphs, counted and split. */
  public static CountingSplit erdosRenyi(int size, double p, long seed) {
    return CountingSplit.of(String.format(Locale.ROOT, "er-%.1f", p),
        // d1 and d2 get unrelated draws: the same seed at two p would nest one graph in the other.
        CountingDataset.generate(size, seed ^ Double.doubleToLongBits(p),
            s -> RandomGraphs.erdosRenyi(ER_NODES, p, s)),
        TRAIN, VALIDATION, splitSeed(seed));
  }

  private static long splitSeed(long seed) {
    return new SplitMix64(seed ^ 0x5b1e5b1e5b1eL).nextLong();
  }
}
