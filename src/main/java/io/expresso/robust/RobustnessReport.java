package io.expresso.robust;

import io.expresso.attack.AttackResult;
import io.expresso.attack.Budgets;
import io.expresso.attack.PerturbationSpace;
import io.expresso.count.Pattern;
import io.expresso.stats.MeanStd;
import io.expresso.stats.WelchTTest;
import io.expresso.train.CountErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The study's report, computed from the job outcomes: test errors beside the paper's (Table 3),
 * the AUC table (Table 1: NR and NR (tr.), mean ± standard error over seeds), success-versus-budget
 * curves (Fig. 5), the OOD table (Table 2) and Welch t-tests (Tables 5 and 6) for shifts of the
 * pattern count (space P) and the edge count (space P^c) between transferring adversarial
 * examples and their clean graphs, pooled over seeds. The data only: {@code
 * io.expresso.report.RobustnessWriter} writes it as terminal tables, Markdown, JSON and PNG.
 */
public final class RobustnessReport {

  public record ErrorRow(String model, String pattern, String dataset, MeanStd l1, MeanStd lc,
      double paperL1, int meanCorrectTest, double meanTrainSeconds, int meanBestEpoch) {}

  public record AucRow(String model, String pattern, String space, MeanStd nr, MeanStd nrTransfer,
      int attacked, double meanAttackSeconds) {}

  public record Curve(String model, String pattern, String space, double[] fractions, int[] budgets,
      MeanStd[] success, MeanStd[] transfer) {}

  /**
   * Isomorphic train/test leakage of a dataset's split ({@link io.expresso.count.CountingSplit#leakage()}):
   * test graphs with an isomorphic copy among the training graphs, whose errors flatter a model.
   */
  public record LeakageRow(String dataset, int train, int test, int leakedTest, double leakedPct) {}

  public record OodRow(String model, String pattern, String setting, MeanStd l1, MeanStd lc) {}

  public record ShiftRow(String model, String pattern, String quantity, String space, double fraction,
      int budget, int n, double meanClean, double meanAdversarial, double pValue) {}

  private final RobustnessExperiment experiment;
  private final List<TrainOutcome> trained;
  private final List<AttackOutcome> attacks;
  private final double seconds;

  private final List<RobustnessExperiment.SearchRow> search;

  public RobustnessReport(RobustnessExperiment experiment, List<TrainOutcome> trained,
      List<AttackOutcome> attacks, double seconds) {
    this(experiment, trained, attacks, seconds, List.of());
  }

  /** @param search the {@code --search} grid with each point's mean validation ℓ1 (empty without a search) */
  public RobustnessReport(RobustnessExperiment experiment, List<TrainOutcome> trained,
      List<AttackOutcome> attacks, double seconds, List<RobustnessExperiment.SearchRow> search) {
    this.experiment = experiment;
    this.trained = List.copyOf(trained);
    this.attacks = List.copyOf(attacks);
    this.seconds = seconds;
    this.search = List.copyOf(search);
  }

  /** The experiment this report is of. */
  public RobustnessExperiment experiment() {
    return experiment;
  }

  /** The search grid's rows (empty without {@code --search}). */
  public List<RobustnessExperiment.SearchRow> search() {
    return search;
  }

  public List<TrainOutcome> trained() {
    return trained;
  }

  public List<AttackOutcome> attacks() {
    return attacks;
  }

  public double seconds() {
    return seconds;
  }

  /** Test errors of the attack-dataset models. */
  public List<ErrorRow> errors() {
    List<ErrorRow> rows = new ArrayList<>();
    String ds = experiment.scale().attackDataset();
    for (String model : experiment.models()) {
      for (Pattern p : experiment.patterns()) {
        String spec = experiment.spec(model, p);
        String arch = RobustnessExperiment.architecture(spec);
        List<TrainOutcome> os = select(o -> o.job().headOf() == null && o.job().dataset().equals(ds)
            && o.job().spec().equals(spec) && o.job().pattern() == p);
        rows.add(new ErrorRow(label(model), p.cliName(), ds,
            MeanStd.ofMeasured(os.stream().mapToDouble(o -> o.errors().get(ds).l1()).toArray()),
            MeanStd.ofMeasured(os.stream().mapToDouble(o -> o.errors().get(ds).lc()).toArray()),
            ds.equals("sbm") ? PaperValues.l1(arch, p) : Double.NaN,
            (int) Math.round(os.stream().mapToInt(TrainOutcome::correctTest).average().orElse(0)),
            os.stream().mapToDouble(TrainOutcome::seconds).average().orElse(Double.NaN),
            (int) Math.round(os.stream().mapToInt(TrainOutcome::bestEpoch).average().orElse(0))));
      }
    }
    return rows;
  }

  public List<AucRow> auc() {
    List<AucRow> rows = new ArrayList<>();
    forEachGroup((spec, p, space, os) -> rows.add(new AucRow(label(spec),
        p.cliName(), space.cliName(),
        MeanStd.ofMeasured(os.stream().mapToDouble(o -> o.summary().nr()).toArray()),
        MeanStd.ofMeasured(os.stream().mapToDouble(AttackOutcome::nrTransfer).toArray()),
        os.stream().mapToInt(o -> o.summary().attacked()).sum(),
        os.stream().mapToDouble(AttackOutcome::seconds).average().orElse(Double.NaN))));
    return rows;
  }

  public List<Curve> curves() {
    List<Curve> rows = new ArrayList<>();
    forEachGroup((spec, p, space, os) -> {
      double[] fractions = os.isEmpty() ? Budgets.PAPER_FRACTIONS.clone() : os.get(0).summary().fractions();
      MeanStd[] success = new MeanStd[fractions.length];
      MeanStd[] transfer = new MeanStd[fractions.length];
      for (int b = 0; b < fractions.length; b++) {
        int bb = b;
        success[b] = MeanStd.ofMeasured(os.stream().mapToDouble(o -> o.summary().successRate()[bb]).toArray());
        transfer[b] = MeanStd.ofMeasured(os.stream().mapToDouble(o -> o.transferRate()[bb]).toArray());
      }
      int[] budgets = os.isEmpty() ? new int[0] : os.get(0).summary().budgets();
      rows.add(new Curve(label(spec), p.cliName(), space.cliName(),
          fractions, budgets, success, transfer));
    });
    return rows;
  }

  /** Leakage of every dataset the experiment trains on (regenerated from its seed, as the workers do). */
  public List<LeakageRow> leakage() {
    List<String> datasets = new ArrayList<>(List.of(experiment.scale().attackDataset()));
    if (experiment.ood()) {
      for (String d : List.of(RobustnessExperiment.D1, RobustnessExperiment.D2)) {
        if (!datasets.contains(d)) {
          datasets.add(d);
        }
      }
    }
    List<LeakageRow> rows = new ArrayList<>();
    for (String d : datasets) {
      io.expresso.iso.Leakage.Report l = StudyData.get(d, experiment.datasetSize()).leakage();
      rows.add(new LeakageRow(d, l.train(), l.test(), l.leakedTest().length, l.leakedPct()));
    }
    return rows;
  }

  /** Rows d1, OOD, d2 and MLP of Table 2 per model × pattern; empty without the OOD study. */
  public List<OodRow> ood() {
    List<OodRow> rows = new ArrayList<>();
    if (!experiment.ood()) {
      return rows;
    }
    String d1 = RobustnessExperiment.D1;
    String d2 = RobustnessExperiment.D2;
    for (String model : experiment.models()) {
      String arch = label(model);
      for (Pattern p : experiment.patterns()) {
        String spec = experiment.spec(model, p);
        Predicate<TrainOutcome> mp = o -> o.job().spec().equals(spec) && o.job().pattern() == p;
        List<TrainOutcome> onD1 = select(mp.and(o -> o.job().headOf() == null && o.job().dataset().equals(d1)));
        List<TrainOutcome> onD2 = select(mp.and(o -> o.job().headOf() == null && o.job().dataset().equals(d2)));
        List<TrainOutcome> head = select(mp.and(o -> o.job().headOf() != null));
        rows.add(row(arch, p, "d1", onD1, d1));
        rows.add(row(arch, p, "OOD", onD1, d2));
        rows.add(row(arch, p, "d2", onD2, d2));
        rows.add(row(arch, p, "MLP", head, d2));
      }
    }
    return rows;
  }

  private static OodRow row(String arch, Pattern p, String setting, List<TrainOutcome> os, String dataset) {
    List<CountErrors> es = os.stream().map(o -> o.errors().get(dataset)).filter(e -> e != null).toList();
    return new OodRow(arch, p.cliName(), setting,
        MeanStd.ofMeasured(es.stream().mapToDouble(CountErrors::l1).toArray()),
        MeanStd.ofMeasured(es.stream().mapToDouble(CountErrors::lc).toArray()));
  }

  /**
   * Welch t-tests (two-sided, unequal variances) of transferring adversarial examples against their
   * clean graphs: the pattern count for space P, the edge count for space P^c, per budget, pooled
   * over seeds (the paper's Tables 5 and 6).
   */
  public List<ShiftRow> shifts() {
    List<ShiftRow> rows = new ArrayList<>();
    forEachGroup((spec, p, space, os) -> {
      String quantity = space == PerturbationSpace.ANY ? "count"
          : space == PerturbationSpace.COUNT_PRESERVING ? "edges" : null;
      if (quantity == null || os.isEmpty()) {
        return;
      }
      int[] budgets = os.get(0).summary().budgets();
      for (int b = 0; b < budgets.length; b++) {
        List<Double> clean = new ArrayList<>();
        List<Double> adv = new ArrayList<>();
        for (AttackOutcome o : os) {
          List<AttackResult> rs = o.summary().results();
          for (int r = 0; r < rs.size(); r++) {
            AttackResult res = rs.get(r);
            // the example the attack with THIS budget returned, if it transfers
            if (o.transfers()[r][b] && res.adversarialAt(budgets[b])) {
              AttackResult.Step example = res.at(budgets[b]);
              clean.add((double) (quantity.equals("count") ? res.cleanCount() : res.cleanGraph().m()));
              adv.add((double) (quantity.equals("count") ? example.count() : example.graph().m()));
            }
          }
        }
        rows.add(new ShiftRow(label(spec), p.cliName(), quantity, space.cliName(),
            os.get(0).summary().fractions()[b], budgets[b], clean.size(), mean(clean), mean(adv), welch(clean, adv)));
      }
    });
    return rows;
  }

  /**
   * A model's name in the tables: its architecture, or its full spec when the experiment has
   * another spec of the same architecture (so the rows of the two stay apart).
   */
  public String label(String model) {
    String arch = RobustnessExperiment.architecture(model);
    long same = experiment.models().stream().filter(m -> RobustnessExperiment.architecture(m).equals(arch)).count();
    return same > 1 ? model : arch;
  }

  private interface Group {
    void accept(String model, Pattern p, PerturbationSpace space, List<AttackOutcome> outcomes);
  }

  private void forEachGroup(Group g) {
    for (String model : experiment.models()) {
      for (Pattern p : experiment.patterns()) {
        String spec = experiment.spec(model, p);
        for (PerturbationSpace space : RobustnessExperiment.SPACES) {
          // by the full spec: two specs of one architecture are two models
          List<AttackOutcome> os = attacks.stream().filter(o -> o.job().space() == space
              && o.summary().pattern() == p && o.job().spec().equals(spec)
              && o.job().dataset().equals(experiment.scale().attackDataset()))
              .toList();
          g.accept(model, p, space, os);
        }
      }
    }
  }

  private List<TrainOutcome> select(Predicate<TrainOutcome> p) {
    return trained.stream().filter(p).toList();
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** Welch's two-sided p-value; NaN with fewer than 2 samples or no variance at all. */
  static double welch(List<Double> a, List<Double> b) {
    return WelchTTest.pValueOrNaN(a.stream().mapToDouble(Double::doubleValue).toArray(),
        b.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
