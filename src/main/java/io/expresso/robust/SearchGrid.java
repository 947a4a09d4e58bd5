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
 *   <li>{@code paper}: rate 0.001, 0.01 × batch 16, 64 × width 32, 64 × depth 3, 5 (16 points).
 * </ul>
 *
 * Width and depth replace the spec's {@code hidden} and {@code layers}; everything else in the spec
 * (I²-GNN's radius, PPGN's counting variant) stays the recipe's or the user's.
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
      case PAPER -> new SearchGrid(new float[] {0.001f, 0.01f}, new int[] {16, 64}, new int[] {32, 64},
          new int[] {3, 5});
    };
  }

  /** The points for a model's resolved spec (duplicates dropped, in grid order). */
  public List<Point> points(String spec) {
    LinkedHashSet<Point> out = new LinkedHashSet<>();
    for (int width : widths) {
      for (int depth : depths) {
        String sized = io.expresso.model.RegressorSpec.parse(set(set(spec, "hidden", width), "layers", depth)).toString();
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
