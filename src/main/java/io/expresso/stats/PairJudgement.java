package io.expresso.stats;

/**
 * The verdict on one pair, as BREC's official code decides it (see {@link PairedComparison}).
 *
 * @param t2Test T² of G's relabelings against H's (the major procedure)
 * @param t2Reliability T² of relabelings of one graph against other relabelings of the same graph
 * @param threshold the threshold value used
 * @param distinguished T²_test &gt; threshold and T²_test is not close to T²_reliability
 * @param reliable T²_reliability &lt; threshold
 */
public record PairJudgement(
    double t2Test, double t2Reliability, double threshold, boolean distinguished, boolean reliable) {

  /** Distinguished and passed the reliability check (the pair-level reading of RPC). */
  public boolean reliablyDistinguished() {
    return distinguished && reliable;
  }
}
