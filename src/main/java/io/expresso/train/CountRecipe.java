package io.expresso.train;

import io.expresso.count.Pattern;
import io.expresso.model.RegressorSpec;
import java.util.Locale;

/**
 * How one architecture is built and trained to count one pattern: the table of per model ×
 * pattern settings, kept with the model spec rather than with the study's scale (a scale sizes
 * the data and the compute budget, see {@link #capped}).
 *
 * <p>Campi et al.'s recipe ({@code pipelines/GNN_train.py} of Rob-Subgraphs): L1 on raw counts,
 * Adam, ReduceLROnPlateau on the validation loss (factor 0.5, patience 20: their notebooks'
 * values; the repository's config does not hold the ones of the paper's runs), early stopping
 * after 20 epochs without a lower validation loss ({@code patience: 20}) with the best epoch's
 * parameters restored, at most 500 epochs ({@code max_epochs: 500}). Models: I²-GNN as their
 * constructor builds it (width 64, 5 layers, subgraph radius = the pattern's {@code hops}: 1 for
 * triangles and 4-cliques, 2 for 4-cycles, chordal cycles, tailed triangles, 2-paths and 3-stars,
 * 3 for 3-paths); PPGN at the sizes of their {@code tests/model.json} (in 1, hidden 128, out 64,
 * 4 layers) with {@code depth_of_mlp} 2 (their notebooks'); GIN ({@code src/baseline/model_gcn.py})
 * at their {@code tests/model.json}, whose keys are its constructor's (in 1, hidden 128, out 64, 4
 * layers, ELU, add pooling and aggregation, concatenated layers, no batch norm); NGNN width 64, 3 layers.
 * Adam at 1e-3 and batches of 16, inside their grid (rates 1e-5…1e-2, batches 16, 64, 128); the
 * grid search ({@code robust.SearchGrid}) picks per pattern on validation ℓ1 as the paper does.
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
  /** Their {@code patience}: epochs without a lower validation loss before training stops. */
  public static final int STOP_PATIENCE = 20;
  /** Their scheduler's patience and factor (ReduceLROnPlateau). */
  public static final int PLATEAU_PATIENCE = 20;
  public static final float PLATEAU_FACTOR = 0.5f;

  /** The recipe of a bare architecture name ({@code i2gnn}, {@code ppgn}, {@code gin}, {@code ngnn-de}) for a pattern. */
  public static CountRecipe of(String architecture, Pattern pattern) {
    String arch = architecture.trim().toLowerCase(Locale.ROOT);
    String spec = switch (arch) {
      case "i2gnn" -> "i2gnn:hidden=64,layers=5,hops=" + pattern.diameter();
      case "ppgn" -> "ppgn:in=1,hidden=128,d=64,layers=4,depth=2";
      case "gin" -> "gin:in=1,hidden=128,out=64,layers=4,act=elu,pool=add,aggr=add,concat=true,bn=false";
      case "ngnn-de" -> "ngnn-de:layers=3,hidden=64,radius=" + Math.max(2, pattern.diameter());
      default -> throw new IllegalArgumentException("no counting recipe for architecture '" + architecture
          + "' (known: i2gnn, ppgn, gin, ngnn-de)");
    };
    return new CountRecipe(RegressorSpec.parse(spec).toString(), 16, 1e-3f, PAPER_MAX_EPOCHS, PLATEAU_PATIENCE,
        STOP_PATIENCE);
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
    return new CountRegressionTrainer.Settings(maxEpochs, batchSize, learningRate, seed, device, PLATEAU_FACTOR,
        plateauPatience, stopPatience, true);
  }
}
