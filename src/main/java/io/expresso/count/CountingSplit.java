package io.expresso.count;

import io.expresso.graph.Graph;
import io.expresso.iso.Leakage;
import java.util.ArrayList;
import java.util.List;

/**
 * A counting dataset randomly split into train, validation and test parts (Campi et al. §6.1:
 * 30% / 20% / 50%), with the isomorphic train/test leakage of the split.
 *
 * @param name a short name for reports, e.g. {@code sbm} or {@code er-0.3}
 * @param train training graphs and counts
 * @param validation validation graphs and counts
 * @param test test graphs and counts
 * @param leakage test graphs with an isomorphic copy in train (indices into {@code test})
 */
public record CountingSplit(String name, CountingDataset train, CountingDataset validation,
    CountingDataset test, Leakage.Report leakage) {

  /**
   * Splits {@code all} by a seeded uniform permutation: the first {@code trainFraction} of the
   * permuted graphs train, the next {@code validationFraction} validate, the rest test.
   */
  public static CountingSplit of(String name, CountingDataset all, double trainFraction,
      double validationFraction, long seed) {
    if (!(trainFraction > 0 && validationFraction >= 0 && trainFraction + validationFraction < 1)) {
      throw new IllegalArgumentException("split fractions " + trainFraction + " / " + validationFraction
          + " must leave a non-empty test part");
    }
    int n = all.graphs().size();
    int[] order = new SplitMix64(seed).permutation(n); // the same split on every JVM
    int nTrain = (int) Math.round(n * trainFraction);
    int nVal = (int) Math.round(n * validationFraction);
    if (nTrain == 0 || nTrain + nVal >= n) {
      throw new IllegalArgumentException(n + " graphs are too few for a " + trainFraction + " / "
          + validationFraction + " split");
    }
    CountingDataset train = subset(all, order, 0, nTrain);
    CountingDataset val = subset(all, order, nTrain, nTrain + nVal);
    CountingDataset test = subset(all, order, nTrain + nVal, n);
    return new CountingSplit(name, train, val, test, Leakage.between(train.graphs(), test.graphs()));
  }

  private static CountingDataset subset(CountingDataset all, int[] order, int from, int to) {
    List<Graph> graphs = new ArrayList<>(to - from);
    long[][] counts = new long[to - from][];
    for (int i = from; i < to; i++) {
      graphs.add(all.graphs().get(order[i]));
      counts[i - from] = all.counts()[order[i]];
    }
    return new CountingDataset(graphs, counts);
  }
}
