package io.expresso.dataset;

import io.expresso.count.SplitMix64;
import java.util.ArrayList;
import java.util.List;

/**
 * Stratified k-fold cross-validation as Dwivedi et al. split CSL (after Murphy et al.): every
 * class's graphs are shuffled (seeded) and dealt round-robin into k parts, so each part keeps the
 * class distribution; fold f tests on part f, validates on part f+1 (mod k) and trains on the rest
 * — train : validation : test = 3 : 1 : 1 for k = 5. The split seed is the dataset's, not the
 * model's: every model and initialisation seed sees the same folds.
 */
public final class Folds {

  /** One fold's graph indices into the dataset, each ascending. */
  public record Fold(int index, int[] train, int[] validation, int[] test) {}

  private Folds() {}

  public static Fold fold(int[] labels, int classes, int k, int fold, long splitSeed) {
    if (k < 3) {
      throw new IllegalArgumentException("k-fold with validation needs k >= 3, got " + k);
    }
    if (fold < 0 || fold >= k) {
      throw new IllegalArgumentException("fold " + fold + " is not in 0.." + (k - 1));
    }
    int[] part = parts(labels, classes, k, splitSeed);
    List<Integer> train = new ArrayList<>();
    List<Integer> validation = new ArrayList<>();
    List<Integer> test = new ArrayList<>();
    for (int i = 0; i < labels.length; i++) {
      (part[i] == fold ? test : part[i] == (fold + 1) % k ? validation : train).add(i);
    }
    if (train.isEmpty() || validation.isEmpty() || test.isEmpty()) {
      throw new IllegalArgumentException(labels.length + " graphs are too few for " + k + " folds");
    }
    return new Fold(fold, ints(train), ints(validation), ints(test));
  }

  /** The part (0..k−1) of every graph. */
  static int[] parts(int[] labels, int classes, int k, long splitSeed) {
    SplitMix64 rnd = new SplitMix64(splitSeed);
    int[] part = new int[labels.length];
    int dealt = 0; // carried across classes so small classes do not all start in part 0
    for (int c = 0; c < classes; c++) {
      List<Integer> members = new ArrayList<>();
      for (int i = 0; i < labels.length; i++) {
        if (labels[i] == c) {
          members.add(i);
        }
      }
      int[] order = rnd.permutation(members.size());
      for (int j : order) {
        part[members.get(j)] = dealt++ % k;
      }
    }
    return part;
  }

  private static int[] ints(List<Integer> l) {
    return l.stream().mapToInt(Integer::intValue).toArray();
  }
}
