package io.expresso.train;

import io.expresso.count.Pattern;
import io.expresso.model.RegressorSpec;
import java.util.Locale;

/**
 * How one architecture is built and trained to count one pattern: the table of per model ×
 * pattern settings, kept with the model spec rather than with the study's scale (a scale sizes
 * the data and the compute budget, see {@link #capped}).
 *
 * <p>I²-GNN as in Huang et al. and Campi et al.'s code: width 64, 5 layers (labels re-injected at
 * every layer), subgraph radius = the pattern's diameter (1 for triangles and 4-cliques, 2 for
 * 4-cycles, chordal cycles, tailed triangles, 2-paths and 3-stars, 3 for 3-paths). PPGN, GIN and
 * NGNN: width 64, 3 layers / blocks, from the middle of Campi et al.'s grid. Adam at 1e-3 (PPGN,
 * GIN, NGNN) or 3e-4 (I²-GNN: at I²-GNN's own 1e-3, one of two CPU seeds counting triangles was
 * thrown off by a loss spike and stopped at ℓ1 0.274; at 3e-4 both reached 0.031 and 0.056, see
 * docs/results/robustness-i2gnn-1500.md — inside Campi et al.'s grid of 1e-5 to 1e-2). All:
 * batches of 16 (the smallest of Campi et al.'s grid),
 * ReduceLROnPlateau (factor 0.5, patience 20), early stopping after 50 epochs without a better
 * validation ℓ1, at most 500 epochs (Campi et al.'s {@code GNN_train.yaml}).
 *
 * @param spec the full model spec
 * @param batchSize graphs per step
 * @param learningRate initial Adam rate
 * @param maxEpochs the most epochs
 * @param plateauPatience epochs without improvement before the rate is halved
 * @param stopPatience epochs without improvement before training stops
 */
public record CountRecipe(String spec, int batchSize, float learningRate, int maxEpochs, int plateauPatience,
    int stopPatience) {

  public static final int PAPER_MAX_EPOCHS = 500;

  /** The recipe of a bare architecture name ({@code i2gnn}, {@code ppgn}, {@code gin}, {@code ngnn-de}) for a pattern. */
  public static CountRecipe of(String architecture, Pattern pattern) {
    String arch = architecture.trim().toLowerCase(Locale.ROOT);
    String spec = switch (arch) {
      case "i2gnn" -> "i2gnn:hidden=64,layers=5,hops=" + pattern.diameter();
      case "ppgn" -> "ppgn:layers=3,hidden=64";
      case "gin" -> "gin:layers=3,hidden=64";
      case "ngnn-de" -> "ngnn-de:layers=3,hidden=64,radius=" + Math.max(2, pattern.diameter());
      default -> throw new IllegalArgumentException("no counting recipe for architecture '" + architecture
          + "' (known: i2gnn, ppgn, gin, ngnn-de)");
    };
    float rate = arch.equals("i2gnn") ? 3e-4f : 1e-3f;
    return new CountRecipe(RegressorSpec.parse(spec).toString(), 16, rate, PAPER_MAX_EPOCHS, 20, 50);
  }

  /**
   * The spec of a model option for a pattern: a bare architecture gets its recipe's spec; a spec
   * with {@code :key=value} sizes is kept as written (I²-GNN without {@code hops} gets the
   * pattern's radius).
   */
  public static String resolve(String model, Pattern pattern) {
    String m = model.trim();
    RegressorSpec parsed = RegressorSpec.parse(m); // names a bad architecture as the user wrote it
    if (!m.contains(":")) {
      return of(parsed.architecture(), pattern).spec();
    }
    if (parsed.architecture().equals("i2gnn") && !m.toLowerCase(Locale.ROOT).contains("hops=")) {
      return RegressorSpec.parse(m + ",hops=" + pattern.diameter()).toString();
    }
    return parsed.toString();
  }

  /**
   * This recipe within a compute budget: width and depth at most {@code maxHidden} and
   * {@code maxLayers} (0: no cap), at most {@code maxEpochs} epochs with the patiences shrunk by
   * the square root of the epoch ratio. Applies to the spec only when it came from the recipe; an explicit spec is the
   * user's.
   */
  public CountRecipe capped(int maxHidden, int maxLayers, int maxEpochsCap) {
    return capped(maxHidden, maxLayers, maxEpochsCap, 0, 0f);
  }

  /**
   * As {@link #capped(int, int, int)}, and with at most {@code maxBatch} graphs per step and a
   * learning rate of at least {@code minLearningRate} (0: no cap, no floor): a short budget takes
   * more and larger steps.
   */
  public CountRecipe capped(int maxHidden, int maxLayers, int maxEpochsCap, int maxBatch, float minLearningRate) {
    return capped(maxHidden, maxLayers, maxEpochsCap, maxBatch, minLearningRate, 0.5);
  }

  /**
   * As above, with the patiences shrunk by the epoch ratio to the power {@code patienceExponent}
   * (1: in proportion, as the seconds-long {@code tiny} demo does; 0.5: far less).
   */
  public CountRecipe capped(int maxHidden, int maxLayers, int maxEpochsCap, int maxBatch, float minLearningRate,
      double patienceExponent) {
    String s = spec;
    if (maxHidden > 0 || maxLayers > 0) {
      s = RegressorSpec.parse(spec).withSizes(maxHidden, maxLayers).toString();
    }
    int epochs = Math.min(maxEpochs, maxEpochsCap);
    // Patiences shrink with the square root of the epoch budget, not in proportion: 60 of 500
    // epochs keep a third of them (plateau 7, stop 17), where a proportional cut (6) stopped noisy
    // runs after ~18 epochs.
    double shrink = Math.pow((double) epochs / maxEpochs, patienceExponent);
    return new CountRecipe(s, maxBatch > 0 ? Math.min(batchSize, maxBatch) : batchSize,
        Math.max(learningRate, minLearningRate), epochs,
        Math.max(2, (int) Math.round(plateauPatience * shrink)), Math.max(4, (int) Math.round(stopPatience * shrink)));
  }

  /** Trainer settings of this recipe. */
  public CountRegressionTrainer.Settings settings(long seed, String device) {
    return new CountRegressionTrainer.Settings(maxEpochs, batchSize, learningRate, seed, device, 0.5f,
        plateauPatience, stopPatience);
  }
}
