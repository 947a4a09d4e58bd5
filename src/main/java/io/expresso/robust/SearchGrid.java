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
 * Width and depth replace the spec's {@code hidden} and {@code layers} (PPGN's {@code d} and GIN's
 * {@code out} become half the width, as their channel triples; both need 2 layers at least); everything
 * else in the spec stays the recipe's or the user's: I²-GNN's radius, and the input channels {@code in}
 * (1 in the recipes). Their triples' first entry is not used for {@code in}: the runs behind the paper
 * took one input channel, since their {@code pipelines/GNN_retrain.py} loads the selected models from
 * their saved hyper-parameters and feeds them {@code GraphDataset(..., in_channels=1)} (lines 153–155,
 * {@code #channels[0]} commented out), which only a model built with {@code in_channels=1} accepts. {@code --grid} gives a grid of one's own ({@link #parse}).
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

  /** The keys of {@code --grid}, in its order. */
  public static final List<String> KEYS = List.of("lr", "batch", "width", "depth");

  public SearchGrid {
    learningRates = learningRates.clone();
    batchSizes = batchSizes.clone();
    widths = widths.clone();
    depths = depths.clone();
  }

  /**
   * A grid from {@code --grid}'s text, {@code key=v1,v2;key=v…} with keys {@code lr}, {@code batch},
   * {@code width} and {@code depth}; a key left out keeps {@code base}'s values. Each value is checked
   * against its range, and an unknown key, an empty list or a bad number is one line naming it.
   */
  public static SearchGrid parse(String text, SearchGrid base) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("--grid is empty: give key=v1,v2;… with keys " + String.join(", ", KEYS));
    }
    float[] lr = base.learningRates;
    int[] batch = base.batchSizes;
    int[] width = base.widths;
    int[] depth = base.depths;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (String part : text.split(";")) {
      int eq = part.indexOf('=');
      String key = (eq < 0 ? part : part.substring(0, eq)).trim();
      if (!KEYS.contains(key)) {
        throw new IllegalArgumentException("--grid: unknown key '" + key + "' in '" + part.trim() + "' (keys: "
            + String.join(", ", KEYS) + ")");
      }
      if (!seen.add(key)) {
        throw new IllegalArgumentException("--grid: key '" + key + "' is given twice");
      }
      String[] values = eq < 0 ? new String[0] : java.util.Arrays.stream(part.substring(eq + 1).split(","))
          .map(String::trim).filter(v -> !v.isEmpty()).toArray(String[]::new);
      if (values.length == 0) {
        throw new IllegalArgumentException("--grid: key '" + key + "' has no values (write " + key + "=v1,v2)");
      }
      switch (key) {
        case "lr" -> {
          lr = new float[values.length];
          for (int i = 0; i < values.length; i++) {
            lr[i] = number(key, values[i]).floatValue();
            if (!(lr[i] > 0 && lr[i] < 1)) {
              throw new IllegalArgumentException("--grid: lr must be in (0, 1), got " + values[i]);
            }
          }
        }
        case "batch" -> batch = integers(key, values, 1, 4096);
        case "width" -> width = integers(key, values, 2, 1024);
        default -> depth = integers(key, values, 1, 16);
      }
    }
    return new SearchGrid(lr, batch, width, depth);
  }

  private static Double number(String key, String value) {
    try {
      return Double.valueOf(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--grid: " + key + " value '" + value + "' is not a number");
    }
  }

  private static int[] integers(String key, String[] values, int min, int max) {
    int[] out = new int[values.length];
    for (int i = 0; i < values.length; i++) {
      double v = number(key, values[i]);
      if (v != Math.rint(v) || v < min || v > max) {
        throw new IllegalArgumentException("--grid: " + key + " must be a whole number from " + min + " to " + max
            + ", got " + values[i]);
      }
      out[i] = (int) v;
    }
    return out;
  }

  /** The points for a model's resolved spec (duplicates dropped, in grid order). */
  public List<Point> points(String spec) {
    LinkedHashSet<Point> out = new LinkedHashSet<>();
    boolean ppgn = spec.startsWith("ppgn");
    boolean gin = spec.startsWith("gin:") || spec.equals("gin");
    // I²-GNN: their constructor's width is 64 whatever the grid's channels; a smaller grid's width is kept
    int[] ws = spec.startsWith("i2gnn") && widths.length > 1 ? new int[] {Math.min(64, widths[widths.length - 1])} : widths;
    for (int width : ws) {
      for (int depth : depths) {
        String s = set(set(spec, "hidden", width), "layers", ppgn || gin ? Math.max(2, depth) : depth);
        if (ppgn) {
          s = set(s, "d", Math.max(1, width / 2));
        }
        if (gin) {
          s = set(s, "out", Math.max(1, width / 2));
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
