package io.expresso.robust;

import io.expresso.count.Pattern;
import io.expresso.train.CountRecipe;
import java.util.List;
import java.util.Locale;

/**
 * How big a robustness study is: the data, the seeds, the attacks and the compute budget. How a
 * model is built and trained for a pattern is its recipe ({@link CountRecipe}), not the scale's; a
 * scale only caps it (width, depth, epochs) to fit its budget.
 *
 * <ul>
 *   <li>{@code tiny}: a demo in seconds (the {@code demo} command's stage): 200 ER(10, 0.3) graphs,
 *       2 seeds, models capped at width 16, 2 layers, 20 epochs (batch ≤ 8, learning rate ≥ 0.01), 6 attacked
 *       graphs, beam 2.
 *   <li>{@code small}: the paper's SBM graphs and protocol on a 2-core laptop within about an hour
 *       for one model × pattern: 600 graphs, 2 seeds, models capped at width 32, 3 layers, 60
 *       epochs (batch ≤ 16, the recipe's learning rate), 20 attacked graphs, beam 3 with 24
 *       degree-weighted candidate flips per member.
 *   <li>{@code paper}: Campi et al. §6: 5,000 graphs, 5 seeds, every pattern by default, the
 *       recipes uncapped (up to 500 epochs with early stopping), 100 attacked graphs, beam 10,
 *       every flip expanded; meant for GPU workers.
 * </ul>
 *
 * @param attackDataset {@code sbm} or {@code er-0.3}: the dataset models are trained on and attacked on
 * @param datasetSize graphs per dataset (before the 30/20/50 split)
 * @param seeds initialisation seeds per model × pattern (transfer needs at least 2)
 * @param maxHidden width cap of recipe specs (0: none)
 * @param maxLayers depth cap of recipe specs (0: none)
 * @param epochs the most training epochs (early stopping may end sooner)
 * @param maxBatch batch-size cap (0: none): a short budget takes more, smaller steps
 * @param minLearningRate learning-rate floor (0: none): a short budget takes larger steps
 * @param attacked correctly predicted test graphs attacked per model
 * @param beamWidth beam width for P^c and P^s (P is always greedy, width 1)
 * @param candidatesPerMember 0 = expand every flip; otherwise a degree-weighted sample per beam member
 */
public enum Scale {
  TINY("er-0.3", 200, 2, 16, 2, 20, 8, 0.01f, 6, 2, 12),
  SMALL("sbm", 600, 2, 32, 3, 60, 16, 0f, 20, 3, 24),
  PAPER("sbm", 5000, 5, 0, 0, CountRecipe.PAPER_MAX_EPOCHS, 0, 0f, 100, 10, 0);

  private final String attackDataset;
  private final int datasetSize;
  private final int seeds;
  private final int maxHidden;
  private final int maxLayers;
  private final int epochs;
  private final int maxBatch;
  private final float minLearningRate;
  private final int attacked;
  private final int beamWidth;
  private final int candidatesPerMember;

  Scale(String attackDataset, int datasetSize, int seeds, int maxHidden, int maxLayers, int epochs,
      int maxBatch, float minLearningRate, int attacked, int beamWidth, int candidatesPerMember) {
    this.maxBatch = maxBatch;
    this.minLearningRate = minLearningRate;
    this.attackDataset = attackDataset;
    this.datasetSize = datasetSize;
    this.seeds = seeds;
    this.maxHidden = maxHidden;
    this.maxLayers = maxLayers;
    this.epochs = epochs;
    this.attacked = attacked;
    this.beamWidth = beamWidth;
    this.candidatesPerMember = candidatesPerMember;
  }

  /** The recipe of {@code architecture} for {@code pattern} within this scale's budget. */
  public CountRecipe recipe(String architecture, Pattern pattern) {
    return recipe(architecture, pattern, epochs);
  }

  /** As {@link #recipe(String, Pattern)} with at most {@code maxEpochs} epochs instead of the scale's cap. */
  public CountRecipe recipe(String architecture, Pattern pattern, int maxEpochs) {
    // tiny keeps the proportional cut of the patiences (its demo budget is seconds); the others shrink them far less
    return CountRecipe.of(architecture, pattern).capped(maxHidden, maxLayers, maxEpochs, maxBatch, minLearningRate,
        this == TINY ? 1.0 : 0.5);
  }

  /** The patterns studied when none are named: all eight at {@code paper}, triangles otherwise. */
  public List<Pattern> defaultPatterns() {
    return this == PAPER ? List.of(Pattern.values()) : List.of(Pattern.TRIANGLE);
  }

  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Scale fromName(String name) {
    for (Scale s : values()) {
      if (s.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown scale '" + name + "' (expected tiny, small or paper)");
  }

  public String attackDataset() {
    return attackDataset;
  }

  public int datasetSize() {
    return datasetSize;
  }

  public int seeds() {
    return seeds;
  }

  public int epochs() {
    return epochs;
  }

  public int maxHidden() {
    return maxHidden;
  }

  public int maxLayers() {
    return maxLayers;
  }

  public int attacked() {
    return attacked;
  }

  public int beamWidth() {
    return beamWidth;
  }

  public int candidatesPerMember() {
    return candidatesPerMember;
  }
}
