/**
 * The statistics behind BREC's judgement (Wang &amp; Zhang): Hotelling's T² on paired embeddings
 * with a pseudo-inverse covariance ({@link io.expresso.stats.HotellingT2}), the fixed RPC threshold
 * and the adaptive RAPC one ({@link io.expresso.stats.Threshold}), the official decision rule
 * ({@link io.expresso.stats.PairedComparison}), multi-seed aggregation
 * ({@link io.expresso.stats.SeedSearch}), Welch's t-test ({@link io.expresso.stats.WelchTTest}) and mean ± std
 * summaries ({@link io.expresso.stats.MeanStd}).
 *
 * <p>Entry point for an evaluator holding embeddings as {@code double[q][d]} arrays (row i = the
 * embedding of relabeling i):
 *
 * <pre>{@code
 * PairJudgement j = PairedComparison.judge(gEmb, hEmb, relA, relB, Threshold.rpc(q, d, 0.05), Convention.BREC);
 * }</pre>
 *
 * Pure Java on Apache Commons Math (F and t distributions, covariance, SVD); no model code here.
 */
package io.expresso.stats;
