package io.expresso.dataset;

import io.expresso.count.SplitMix64;
import java.util.ArrayList;
import java.util.List;

/**
 * Stratified k-fold cross-validation as Dwivedi et al. split CSL (after Murphy et al.): every
 * class's graphs are shuffled (seeded) and dealt round-robin into k parts, so each part keeps the
 * class distribution; fold f tests on part f, validates on part f+1 (mod k) and trains on the rest
 * — train : validation : test = 3 : 1 : 1 for k = 5. The split seed is the dataset's, not the
 * model's: every model and initialisation seed sees the same folds. A regression dataset has no
 * classes to stratify: {@link #plain} shuffles all graphs (seeded) and deals them the same way.
 */
public final class Folds {

  /** One fold's graph indices into the dataset, each ascending. */
  public record Fold(int index, int[] train, int[] validation, int[] test) {}

  private Folds() {}

  /** Fold {@code fold} of {@code data}: stratified by class ({@link #fold}), or {@link #plain} for regression. */
  public static Fold of(GraphDataset data, int k, int fold, long splitSeed) {
    return data.regression() ? plain(data.size(), k, fold, splitSeed)
        : fold(data.labels(), data.classes(), k, fold, splitSeed);
  }

  /** Fold {@code fold} of stratified k-fold cross-validation over graphs with these class labels. */
  public static Fold fold(int[] labels, int classes, int k, int fold, long splitSeed) {
    check(k, fold);
    return assemble(parts(labels, classes, k, splitSeed), k, fold);
  }

  /**
   * Fold {@code fold} of plain shuffled k-fold cross-validation over {@code size} graphs (no
   * stratification): the graphs in a seeded random order dealt round-robin into k parts, then test,
   * validation and training parts as {@link #fold}.
   */
  public static Fold plain(int size, int k, int fold, long splitSeed) {
    check(k, fold);
    int[] part = new int[size];
    int[] order = new SplitMix64(splitSeed).permutation(size);
    for (int j = 0; j < size; j++) {
      part[order[j]] = j % k;
    }
    return assemble(part, k, fold);
  }

  private static void check(int k, int fold) {
    if (k < 3) {
      throw new IllegalArgumentException("k-fold with validation needs k >= 3, got " + k);
    }
    if (fold < 0 || fold >= k) {
      throw new IllegalArgumentException("fold " + fold + " is not in 0.." + (k - 1));
    }
  }

  private static Fold assemble(int[] part, int k, int fold) {
    List<Integer> train = new ArrayList<>();
    List<Integer> validation = new ArrayList<>();
    List<Integer> test = new ArrayList<>();
    for (int i = 0; i < part.length; i++) {
      (part[i] == fold ? test : part[i] == (fold + 1) % k ? validation : train).add(i);
    }
    if (train.isEmpty() || validation.isEmpty() || test.isEmpty()) {
      throw new IllegalArgumentException(part.length + " graphs are too few for " + k + " folds");
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
