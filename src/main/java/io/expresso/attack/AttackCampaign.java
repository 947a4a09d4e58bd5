package io.expresso.attack;

import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Attacks every graph of a test set at budgets given as fractions of the mean edge count, as in
 * Campi et al. §6.1, and summarises: success rate per budget and its normalised area (NR), and,
 * when other models are given, the same for examples that transfer to all of them (NR (tr.)).
 * One search per graph at the largest budget answers every smaller budget (see
 * {@link BeamSearchAttack}).
 */
public final class AttackCampaign {

  /**
   * @param budgets flips per budget fraction
   * @param successRate per budget, over correctly predicted graphs
   * @param nr normalised area under {@code successRate} over the fractions
   * @param transferRate per budget, examples adversarial for every other model too (empty if none given)
   * @param nrTransfer normalised area under {@code transferRate}, NaN if no other models
   * @param attacked graphs predicted correctly, hence attacked
   */
  public record Summary(Pattern pattern, PerturbationSpace space, double[] fractions, int[] budgets,
      double[] successRate, double nr, double[] transferRate, double nrTransfer, int attacked,
      List<AttackResult> results) {}

  private final Pattern pattern;
  private final PerturbationSpace space;
  private final double[] fractions;
  private final int beamWidth;
  private final int candidatesPerMember;
  private final AdversarialRule rule;
  private final long seed;

  public AttackCampaign(Pattern pattern, PerturbationSpace space, double[] fractions, int beamWidth,
      int candidatesPerMember, AdversarialRule rule, long seed) {
    if (fractions.length == 0) {
      throw new IllegalArgumentException("at least one budget fraction is needed");
    }
    this.pattern = pattern;
    this.space = space;
    this.fractions = fractions.clone();
    this.beamWidth = beamWidth;
    this.candidatesPerMember = candidatesPerMember;
    this.rule = rule;
    this.seed = seed;
  }

  /**
   * Attacks {@code graphs} against {@code model}; budgets are fractions of {@code meanEdges}
   * (normally the dataset's mean edge count, see {@link io.expresso.count.CountingDataset#meanEdges()}).
   */
  public Summary run(List<Graph> graphs, CountModel model, double meanEdges, List<CountModel> others) {
    return run(graphs, model, meanEdges, others, () -> false);
  }

  /**
   * As {@link #run(List, CountModel, double, List)}, checking {@code cancelled} before every
   * graph and inside every search (see {@link BeamSearchAttack#attack(Graph, CountModel, BooleanSupplier)}).
   *
   * @throws CancellationException once {@code cancelled} is true
   */
  public Summary run(List<Graph> graphs, CountModel model, double meanEdges, List<CountModel> others,
      BooleanSupplier cancelled) {
    int[] budgets = Budgets.fromFractions(fractions, meanEdges);
    int maxBudget = 0;
    for (int b : budgets) {
      maxBudget = Math.max(maxBudget, b);
    }
    List<AttackResult> results = new ArrayList<>(graphs.size());
    for (int g = 0; g < graphs.size(); g++) {
      if (cancelled.getAsBoolean()) {
        throw new CancellationException("attack campaign cancelled before graph " + (g + 1) + " of " + graphs.size());
      }
      AttackConfig config = new AttackConfig(pattern, space, maxBudget, beamWidth, candidatesPerMember,
          rule, seed + g);
      results.add(new BeamSearchAttack(config).attack(graphs.get(g), model, cancelled));
    }
    double[] success = AttackCurves.successRate(results, budgets);
    double[] transfer = others.isEmpty() ? new double[0] : AttackCurves.transferRate(results, others, rule, budgets);
    int attacked = (int) results.stream().filter(AttackResult::cleanCorrect).count();
    return new Summary(pattern, space, fractions.clone(), budgets, success,
        AttackCurves.normalisedAuc(fractions, success), transfer,
        others.isEmpty() ? Double.NaN : AttackCurves.normalisedAuc(fractions, transfer), attacked,
        List.copyOf(results));
  }
}
