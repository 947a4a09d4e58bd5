package io.expresso.dataset;

import io.expresso.iso.ColouredGraph;
import io.expresso.iso.Leakage;
import io.expresso.iso.Orbits;
import java.util.ArrayList;
import java.util.List;

/**
 * Which test graphs of a fold have an isomorphic copy among its training graphs (canonical
 * certificates, {@link Orbits}), and what the audit's peering predictor scores on them
 * ({@link Leakage}): the numbers Ivanov et al. set beside a classifier's.
 */
public final class Copies {

  private Copies() {}

  /** The fold's leakage; indices in the report are dataset indices. */
  public static Leakage.Report of(GraphDataset data, int[] train, int[] test) {
    List<ColouredGraph> graphs = new ArrayList<>(train.length + test.length);
    List<Integer> labels = new ArrayList<>(train.length + test.length);
    boolean[] isTest = new boolean[train.length + test.length];
    int[] index = new int[isTest.length];
    int k = 0;
    for (int i : train) {
      graphs.add(data.coloured(i));
      labels.add(data.labels()[i]);
      index[k++] = i;
    }
    for (int i : test) {
      graphs.add(data.coloured(i));
      labels.add(data.labels()[i]);
      isTest[k] = true;
      index[k++] = i;
    }
    Leakage.Report r = Leakage.of(Orbits.of(graphs), labels, isTest);
    return new Leakage.Report(r.train(), r.test(), map(r.leakedTest(), index), r.peeringCorrect(),
        map(r.cleanTest(), index));
  }

  private static int[] map(int[] local, int[] index) {
    int[] out = new int[local.length];
    for (int i = 0; i < local.length; i++) {
      out[i] = index[local[i]];
    }
    return out;
  }
}
