package io.expresso.robust;

import io.expresso.count.Pattern;
import java.util.Map;

/** Campi et al., Table 3: test ℓ1 on their SBM data (mean over 5 seeds), to print beside ours. */
final class PaperValues {

  private static final Map<String, double[]> L1 = Map.of(
      "gin", new double[] {2.6, 7.6, 0.81, 4.4, 15.0, 21.0, 6.3, 40.0},
      "ppgn", new double[] {0.014, 0.15, 0.038, 0.38, 1.1, 0.81, 0.23, 2.7},
      "i2gnn", new double[] {0.0069, 0.26, 0.0031, 0.058, 0.39, 0.6, 0.25, 1.5});

  private PaperValues() {}

  /** The paper's ℓ1 for an architecture and pattern, NaN when it reports none. */
  static double l1(String architecture, Pattern p) {
    double[] row = L1.get(architecture);
    return row == null ? Double.NaN : row[p.ordinal()];
  }
}
