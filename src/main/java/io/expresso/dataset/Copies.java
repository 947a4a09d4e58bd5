package io.expresso.dataset;

import io.expresso.iso.ColouredGraph;
import io.expresso.iso.Leakage;
import io.expresso.iso.Orbits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which test graphs of a fold have an isomorphic copy among its training graphs (canonical
 * certificates, {@link Orbits}), and what the audit's peering predictor scores on them
 * ({@link Leakage}): the numbers Ivanov et al. set beside a classifier's. For a regression dataset
 * "the same label" means the same target, and the peering predictor answers the mean target of the
 * graph's training copies ({@link #peeringMae}).
 */
public final class Copies {

  private Copies() {}

  /**
   * A fold's copies: the leakage report (indices are dataset indices) and, for a regression dataset,
   * the peering predictor's mean absolute error on the copied test graphs (NaN for a classification
   * dataset or when no test graph has a copy).
   */
  public record Measured(Leakage.Report report, double peeringMae) {}

  /** The fold's leakage; indices in the report are dataset indices. */
  public static Leakage.Report of(GraphDataset data, int[] train, int[] test) {
    return measure(data, train, test).report();
  }

  /** The fold's leakage and, for regression, the peering predictor's error ({@link Measured}). */
  public static Measured measure(GraphDataset data, int[] train, int[] test) {
    List<Object> audit = data.auditLabels();
    List<ColouredGraph> graphs = new ArrayList<>(train.length + test.length);
    List<Object> labels = new ArrayList<>(train.length + test.length);
    boolean[] isTest = new boolean[train.length + test.length];
    int[] index = new int[isTest.length];
    int k = 0;
    for (int i : train) {
      graphs.add(data.coloured(i));
      labels.add(audit.get(i));
      index[k++] = i;
    }
    for (int i : test) {
      graphs.add(data.coloured(i));
      labels.add(audit.get(i));
      isTest[k] = true;
      index[k++] = i;
    }
    Orbits orbits = Orbits.of(graphs);
    Leakage.Report r = Leakage.of(orbits, labels, isTest);
    Leakage.Report mapped = new Leakage.Report(r.train(), r.test(), map(r.leakedTest(), index), r.peeringCorrect(),
        map(r.cleanTest(), index));
    return new Measured(mapped, data.regression() ? peeringMae(orbits, data.targets(), index, isTest, r.leakedTest())
        : Double.NaN);
  }

  /** Mean |mean target of the training copies − target| over the leaked test graphs (local indices). */
  private static double peeringMae(Orbits orbits, double[] targets, int[] index, boolean[] isTest, int[] leaked) {
    if (leaked.length == 0) {
      return Double.NaN;
    }
    Map<Integer, double[]> sumAndCount = new HashMap<>();
    for (int k = 0; k < index.length; k++) {
      if (!isTest[k]) {
        double[] sc = sumAndCount.computeIfAbsent(orbits.orbitOf(k), o -> new double[2]);
        sc[0] += targets[index[k]];
        sc[1]++;
      }
    }
    double error = 0;
    for (int k : leaked) {
      double[] sc = sumAndCount.get(orbits.orbitOf(k));
      error += Math.abs(sc[0] / sc[1] - targets[index[k]]);
    }
    return error / leaked.length;
  }

  private static int[] map(int[] local, int[] index) {
    int[] out = new int[local.length];
    for (int i = 0; i < local.length; i++) {
      out[i] = index[local[i]];
    }
    return out;
  }
}
