package io.expresso.robust;

import java.util.Locale;

/**
 * How big a robustness study is. {@code paper} is Campi et al. §6 (5,000 graphs per dataset,
 * five seeds, 100 attacked graphs, beam 10, every flip expanded) and is meant for GPU workers;
 * {@code small} keeps the paper's generators and protocol at a size a 2-core laptop runs in
 * minutes (fewer graphs, seeds, attacked graphs; beam 3 with 24 degree-weighted candidate flips
 * per member); {@code tiny} is for tests: the attacks run on the 10-vertex ER(0.3) graphs instead
 * of the 30-vertex SBM graphs.
 *
 * @param attackDataset {@code sbm} or {@code er-0.3}: the dataset models are trained on and attacked on
 * @param datasetSize graphs per dataset (before the 30/20/50 split)
 * @param seeds initialisation seeds per model × pattern (transfer needs at least 2)
 * @param epochs training epochs
 * @param batchSize graphs per training step
 * @param learningRate initial Adam learning rate
 * @param hidden hidden width of the networks
 * @param layers inner message-passing layers
 * @param attacked correctly predicted test graphs attacked per model
 * @param beamWidth beam width for P^c and P^s (P is always greedy, width 1)
 * @param candidatesPerMember 0 = expand every flip; otherwise a degree-weighted sample per beam member
 */
public enum Scale {
  TINY("er-0.3", 200, 2, 20, 8, 0.01f, 16, 2, 6, 2, 12),
  SMALL("sbm", 600, 2, 20, 16, 0.01f, 32, 2, 20, 3, 24),
  PAPER("sbm", 5000, 5, 200, 32, 0.005f, 64, 4, 100, 10, 0);

  private final String attackDataset;
  private final int datasetSize;
  private final int seeds;
  private final int epochs;
  private final int batchSize;
  private final float learningRate;
  private final int hidden;
  private final int layers;
  private final int attacked;
  private final int beamWidth;
  private final int candidatesPerMember;

  Scale(String attackDataset, int datasetSize, int seeds, int epochs, int batchSize, float learningRate,
      int hidden, int layers, int attacked, int beamWidth, int candidatesPerMember) {
    this.attackDataset = attackDataset;
    this.datasetSize = datasetSize;
    this.seeds = seeds;
    this.epochs = epochs;
    this.batchSize = batchSize;
    this.learningRate = learningRate;
    this.hidden = hidden;
    this.layers = layers;
    this.attacked = attacked;
    this.beamWidth = beamWidth;
    this.candidatesPerMember = candidatesPerMember;
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

  public int batchSize() {
    return batchSize;
  }

  public float learningRate() {
    return learningRate;
  }

  public int hidden() {
    return hidden;
  }

  public int layers() {
    return layers;
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
