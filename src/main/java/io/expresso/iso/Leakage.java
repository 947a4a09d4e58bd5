package io.expresso.iso;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Train/test leakage through isomorphic copies (Ivanov et al., Section 6): test graphs that have an
 * isomorphic copy in the training set, the accuracy of the "peering" predictor on them (it answers
 * the label of the training copy — the majority label when several copies disagree, ties broken
 * towards the label seen first in training order), and the leakage-free test set (the test
 * graphs without a copy in train).
 *
 * <p>Reusable by dataset generators: {@link #between(List, List)} checks two lists of graphs.
 */
public final class Leakage {

  private Leakage() {}

  /**
   * Leakage of a split.
   *
   * @param leakedTest indices of test graphs with an isomorphic copy in train, ascending
   * @param peeringCorrect leaked test graphs whose label equals the peering prediction
   * @param cleanTest indices of test graphs without a copy in train, ascending
   */
  public record Report(int train, int test, int[] leakedTest, int peeringCorrect, int[] cleanTest) {

    /** Leaked test graphs over all test graphs, in percent (2 decimals). */
    public double leakedPct() {
      return AuditReport.pct(leakedTest.length, test);
    }

    /** Accuracy of the peering predictor on the leaked test graphs in percent, NaN if none leaked. */
    public double peeringAccuracyPct() {
      return leakedTest.length == 0 ? Double.NaN : AuditReport.pct(peeringCorrect, leakedTest.length);
    }
  }

  /**
   * Leakage of a split of one dataset.
   *
   * @param orbits the dataset's orbits
   * @param labels target label of every graph (entries may be null: such graphs are never
   *     predicted correctly and never count as a vote)
   * @param isTest whether each graph is in the test set (the rest is train)
   */
  public static Report of(Orbits orbits, List<?> labels, boolean[] isTest) {
    int n = orbits.graphs();
    if (isTest.length != n || labels.size() != n) {
      throw new IllegalArgumentException("split and labels must cover all " + n + " graphs");
    }
    // Per orbit, the training labels in training order.
    Map<Integer, List<Object>> trainLabels = new HashMap<>();
    int train = 0;
    for (int i = 0; i < n; i++) {
      if (!isTest[i]) {
        train++;
        trainLabels.computeIfAbsent(orbits.orbitOf(i), k -> new ArrayList<>()).add(labels.get(i));
      }
    }
    List<Integer> leaked = new ArrayList<>();
    List<Integer> clean = new ArrayList<>();
    int correct = 0;
    for (int i = 0; i < n; i++) {
      if (!isTest[i]) {
        continue;
      }
      List<Object> copies = trainLabels.get(orbits.orbitOf(i));
      if (copies == null) {
        clean.add(i);
        continue;
      }
      leaked.add(i);
      Object predicted = majority(copies);
      if (labels.get(i) != null && Objects.equals(predicted, labels.get(i))) {
        correct++;
      }
    }
    return new Report(train, n - train, toArray(leaked), correct, toArray(clean));
  }

  /**
   * Leakage between two separate lists of unlabelled graphs (for generated datasets): the test
   * indices with an isomorphic copy in {@code train}. Peering counts are 0 (no labels).
   */
  public static Report between(List<Graph> train, List<Graph> test) {
    List<ColouredGraph> all = new ArrayList<>(train.size() + test.size());
    train.forEach(g -> all.add(ColouredGraph.uncoloured(g)));
    test.forEach(g -> all.add(ColouredGraph.uncoloured(g)));
    boolean[] isTest = new boolean[all.size()];
    for (int i = train.size(); i < all.size(); i++) {
      isTest[i] = true;
    }
    List<Object> labels = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      labels.add(null);
    }
    Report r = of(Orbits.of(all), labels, isTest);
    int shift = train.size();
    return new Report(r.train(), r.test(), shifted(r.leakedTest(), shift), 0, shifted(r.cleanTest(), shift));
  }

  /** The most frequent non-null label; ties go to the one seen first. */
  private static Object majority(List<Object> labels) {
    Map<Object, Integer> counts = new HashMap<>();
    Object best = null;
    int bestCount = 0;
    for (Object l : labels) {
      if (l == null) {
        continue;
      }
      int c = counts.merge(l, 1, Integer::sum);
      if (c > bestCount) {
        best = l;
        bestCount = c;
      }
    }
    return best;
  }

  private static int[] shifted(int[] a, int shift) {
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i] - shift;
    }
    return out;
  }

  private static int[] toArray(List<Integer> l) {
    return l.stream().mapToInt(Integer::intValue).toArray();
  }
}
