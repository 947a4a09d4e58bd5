package io.expresso.robust;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The hyper-parameter grid of {@code experiment robustness --search}: learning rate × batch size ×
 * width × depth, small versions of Campi et al.'s grid, one per scale (every point trains every
 * seed, so the grid multiplies the training phase):
 *
 * <ul>
 *   <li>{@code tiny}: rate 0.01, 0.003 × batch 8, 16 × width 16 × depth 2 (4 points);
 *   <li>{@code small}: rate 0.001, 0.005 × batch 16, 32 × width 32 × depth 2, 3 (8 points);
 *   <li>{@code paper}: Campi et al.'s grid ({@code config/GNN_train.yaml}): rate 1e-5, 1e-4, 1e-3,
 *       1e-2 ({@code loguniform 1e-5…1e-2, num 4}) × batch 16, 64, 128 × channels [32, 64, 32],
 *       [64, 128, 64], [128, 256, 128] (in, hidden, out: width 64, 128, 256) × layers 2, 3, 5
 *       (108 points); I²-GNN's constructor fixes its width at 64, so it varies rate, batch and
 *       layers only (36 points).
 * </ul>
 *
 * Width and depth replace the spec's {@code hidden} and {@code layers} (PPGN's {@code in} and
 * {@code d} become half the width, as their channel triples); everything else in the spec (I²-GNN's
 * radius) stays the recipe's or the user's.
 */
public record SearchGrid(float[] learningRates, int[] batchSizes, int[] widths, int[] depths) {

  /** One grid point: the spec with its width and depth, and the rate and batch it trains with. */
  public record Point(String spec, float learningRate, int batchSize) {
    /** A short name for ids and tables: {@code lr-0.001-batch-16}. */
    public String suffix() {
      return String.format(Locale.ROOT, "lr-%s-batch-%d", Float.toString(learningRate), batchSize);
    }
  }

  public static SearchGrid of(Scale scale) {
    return switch (scale) {
      case TINY -> new SearchGrid(new float[] {0.01f, 0.003f}, new int[] {8, 16}, new int[] {16}, new int[] {2});
      case SMALL -> new SearchGrid(new float[] {0.001f, 0.005f}, new int[] {16, 32}, new int[] {32}, new int[] {2, 3});
      case PAPER -> new SearchGrid(new float[] {1e-5f, 1e-4f, 1e-3f, 1e-2f}, new int[] {16, 64, 128},
          new int[] {64, 128, 256}, new int[] {2, 3, 5});
    };
  }

  /** The points for a model's resolved spec (duplicates dropped, in grid order). */
  public List<Point> points(String spec) {
    LinkedHashSet<Point> out = new LinkedHashSet<>();
    boolean ppgn = spec.startsWith("ppgn");
    // I²-GNN: their constructor's width is 64 whatever the grid's channels; a smaller grid's width is kept
    int[] ws = spec.startsWith("i2gnn") && widths.length > 1 ? new int[] {Math.min(64, widths[widths.length - 1])} : widths;
    for (int width : ws) {
      for (int depth : depths) {
        String s = set(set(spec, "hidden", width), "layers", ppgn ? Math.max(2, depth) : depth);
        if (ppgn) {
          s = set(set(s, "in", Math.max(1, width / 2)), "d", Math.max(1, width / 2));
        }
        String sized = io.expresso.model.RegressorSpec.parse(s).toString();
        for (float lr : learningRates) {
          for (int b : batchSizes) {
            out.add(new Point(sized, lr, b));
          }
        }
      }
    }
    return new ArrayList<>(out);
  }

  /** {@code spec} with {@code key=value}, replacing the key's value or appending it. */
  private static String set(String spec, String key, int value) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("([:,]" + key + "=)(\\d+)").matcher(spec);
    if (m.find()) {
      return spec.substring(0, m.start(2)) + value + spec.substring(m.end(2));
    }
    return spec + (spec.contains(":") ? "," : ":") + key + "=" + value;
  }

  /** For the report: what varies. */
  public String describe() {
    return "learning rate " + java.util.Arrays.toString(learningRates) + " x batch " + java.util.Arrays.toString(batchSizes)
        + " x width " + java.util.Arrays.toString(widths) + " x depth " + java.util.Arrays.toString(depths);
  }
}
