package io.expresso.stats;

/**
 * Reliable Paired Comparison (RPC, Wang &amp; Zhang): the decision on one pair from its embeddings,
 * exactly as the official BREC evaluation code makes it.
 *
 * <p><b>Inputs.</b> With q relabelings per graph and embeddings in ℝ^d, every argument is a
 * {@code double[q][d]} array, row i being the embedding of relabeling i:
 * <ul>
 *   <li>{@code g}, {@code h}: the major procedure — relabelings G₁..G_q of G and H₁..H_q of H,
 *       paired row by row (BREC's even and odd entries of the pair's major block);
 *   <li>{@code reliabilityA}, {@code reliabilityB}: the reliability check — q relabelings of one
 *       graph of the pair against q <em>other</em> relabelings of that same graph (G against G^π
 *       in the paper; BREC's even and odd entries of the pair's reliability block, see
 *       {@code io.expresso.suite.Relabelings}). Where the suite ships no relabelings, draw 2q fresh
 *       random relabelings of G and split them. Since both sides are isomorphic, the true mean
 *       difference is 0 and T²_reliability measures the model's internal (numerical) fluctuation.
 * </ul>
 * All embeddings come from the same trained model in evaluation mode.
 *
 * <p><b>Decision</b> ({@code test_BREC.py}):
 * <pre>
 * distinguished = T²_test &gt; threshold and not torch.isclose(T²_test, T²_reliability, atol=1e-6)
 * reliable      = T²_reliability &lt; threshold
 * </pre>
 * {@code torch.isclose(a, b, atol=1e-6)} keeps torch's default {@code rtol=1e-5}, so "close" means
 * |a − b| ≤ 1e-6 + 1e-5·|b| with b = T²_reliability (asymmetric, as in torch). We implement that
 * rather than a bare |a − b| ≤ 1e-6 because the point of the {@code brec} convention is to reproduce
 * the official results; since the test fires only when T²_test &gt; threshold (≈ 72), the relative
 * term is what matters in practice (e.g. b = 80 gives a tolerance of 8.01e-4).
 *
 * <p>The official code scores a run as "Real_correct = distinguished − reliability failures"
 * (counts over the suite); {@link SeedRun#realCorrect()} gives that number and
 * {@link PairJudgement#reliablyDistinguished()} the pair-level reading.
 */
public final class PairedComparison {

  /** {@code EPSILON_CMP} of the official code: isclose's absolute tolerance. */
  public static final double ATOL = 1e-6;

  /** torch.isclose's default relative tolerance, left in place by the official code. */
  public static final double RTOL = 1e-5;

  private PairedComparison() {}

  /**
   * Judges one pair.
   *
   * @param g q × d embeddings of G's relabelings
   * @param h q × d embeddings of H's relabelings, paired row by row with {@code g}
   * @param reliabilityA q × d embeddings of relabelings of one graph of the pair
   * @param reliabilityB q × d embeddings of other relabelings of that same graph
   * @param threshold e.g. {@link Threshold#rpc()} or {@link Threshold#rapc}
   * @param convention {@link Convention#BREC} (default, the official code) or
   *     {@link Convention#HOTELLING}
   * @throws IllegalArgumentException on malformed or non-finite embeddings (message names which)
   */
  public static PairJudgement judge(double[][] g, double[][] h, double[][] reliabilityA,
      double[][] reliabilityB, Threshold threshold, Convention convention) {
    return judge(new PairedEmbeddings(g, h), new PairedEmbeddings(reliabilityA, reliabilityB),
        threshold, convention);
  }

  /** As {@link #judge(double[][], double[][], double[][], double[][], Threshold, Convention)}. */
  public static PairJudgement judge(PairedEmbeddings test, PairedEmbeddings reliability,
      Threshold threshold, Convention convention) {
    if (test == null || reliability == null || threshold == null || convention == null) {
      throw new IllegalArgumentException("test and reliability embeddings, threshold and convention are required");
    }
    return decide(test.t2(convention), reliability.t2(convention), threshold.value());
  }

  /** The official decision from the two statistics and the threshold value. */
  public static PairJudgement decide(double t2Test, double t2Reliability, double threshold) {
    boolean distinguished = t2Test > threshold && !isClose(t2Test, t2Reliability);
    boolean reliable = t2Reliability < threshold;
    return new PairJudgement(t2Test, t2Reliability, threshold, distinguished, reliable);
  }

  /** {@code torch.isclose(a, b, rtol=1e-5, atol=1e-6)}. */
  public static boolean isClose(double a, double b) {
    return isClose(a, b, RTOL, ATOL);
  }

  /**
   * {@code torch.isclose(a, b, rtol, atol)} with {@code equal_nan=False}: |a − b| ≤ atol + rtol·|b|;
   * equal infinities are close, NaN is close to nothing.
   */
  public static boolean isClose(double a, double b, double rtol, double atol) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      return false;
    }
    if (a == b) {
      return true; // also covers equal infinities
    }
    if (Double.isInfinite(a) || Double.isInfinite(b)) {
      return false;
    }
    return Math.abs(a - b) <= atol + rtol * Math.abs(b);
  }
}
