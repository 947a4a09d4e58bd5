package io.expresso.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.expresso.count.Pattern;
import io.expresso.robust.RobustnessExperiment;
import io.expresso.robust.RobustnessReport;
import io.expresso.robust.RobustnessReport.AucRow;
import io.expresso.robust.RobustnessReport.Curve;
import io.expresso.robust.RobustnessReport.ErrorRow;
import io.expresso.robust.RobustnessReport.LeakageRow;
import io.expresso.robust.RobustnessReport.OodRow;
import io.expresso.robust.RobustnessReport.ShiftRow;
import io.expresso.robust.Scale;
import io.expresso.stats.MeanStd;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The robustness study's report as people read it ({@link RobustnessReport} holds its data):
 * tables for a terminal, and the files {@code robustness.md}, {@code robustness.json} and one
 * success-versus-budget PNG ({@link SuccessPlot}) per model × pattern.
 */
public final class RobustnessWriter {

  /** The paper omits p-values from fewer samples; we print them but flag them. */
  static final int MIN_SHIFT_SAMPLES = 25;

  private RobustnessWriter() {}

  /** The study's tables for a terminal: test errors, the search grid, AUC and OOD, then the total time. */
  public static void print(RobustnessReport r, PrintWriter o) {
    Table errors = new Table("model", "pattern", "dataset", "test l1", "test lc", "paper l1", "correct", "train s");
    for (RobustnessReport.ErrorRow e : r.errors()) {
      errors.row(e.model(), e.pattern(), e.dataset(), fmt(e.l1().mean()), fmt(e.lc().mean()), fmt(e.paperL1()),
          String.valueOf(e.meanCorrectTest()), String.format(Locale.ROOT, "%.1f", e.meanTrainSeconds()));
    }
    if (!r.search().isEmpty()) {
      Table grid = new Table("model", "pattern", "spec", "lr", "batch", "val l1", "selected");
      for (RobustnessExperiment.SearchRow g : r.search()) {
        grid.row(g.model(), g.pattern().cliName(), g.point().spec(), Float.toString(g.point().learningRate()),
            String.valueOf(g.point().batchSize()), fmt(g.validationL1().mean()), g.selected() ? "<-" : "");
      }
      o.println("Hyper-parameter search (mean validation l1 over seeds)");
      o.print(grid.render());
      o.println();
    }
    o.println("Test errors (mean over seeds)");
    o.print(errors.render());
    Table auc = new Table("model", "pattern", "space", "NR", "NR (tr.)", "attacked", "attack s");
    for (RobustnessReport.AucRow a : r.auc()) {
      auc.row(a.model(), a.pattern(), a.space(), fmt(a.nr().mean()), fmt(a.nrTransfer().mean()),
          String.valueOf(a.attacked()), String.format(Locale.ROOT, "%.1f", a.meanAttackSeconds()));
    }
    o.println();
    o.println("AUC of attack success over budgets 1-25% (normalised; mean over seeds)");
    o.print(auc.render());
    if (!r.ood().isEmpty()) {
      Table ood = new Table("model", "pattern", "setting", "l1", "lc");
      for (RobustnessReport.OodRow x : r.ood()) {
        ood.row(x.model(), x.pattern(), x.setting(), fmt(x.l1().mean()), fmt(x.lc().mean()));
      }
      o.println();
      o.println("Out of distribution: d1 = ER(10, 0.3), d2 = ER(10, 0.8)");
      o.print(ood.render());
    }
    o.printf(Locale.ROOT, "%nrobustness study done in %.1f s%n", r.seconds());
    o.flush();
  }

  private static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return Math.abs(v) < 0.01 && v != 0 ? String.format(Locale.ROOT, "%.2e", v) : String.format(Locale.ROOT, "%.3f", v);
  }

  /** Writes robustness.md, robustness.json and one success-versus-budget PNG per model × pattern. */
  public static List<Path> write(RobustnessReport report, Path dir) throws IOException {
    RobustnessExperiment experiment = report.experiment();
    Files.createDirectories(dir);
    List<Path> files = new ArrayList<>();
    Path md = dir.resolve("robustness.md");
    Files.writeString(md, markdown(report), StandardCharsets.UTF_8);
    files.add(md);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("experiment", experiment.experimentId());
    json.put("scale", experiment.scale().cliName());
    json.put("models", experiment.models());
    Map<String, Map<String, String>> specs = new LinkedHashMap<>();
    for (String m : experiment.models()) {
      Map<String, String> byPattern = new LinkedHashMap<>();
      experiment.patterns().forEach(p -> byPattern.put(p.cliName(), experiment.spec(m, p)));
      specs.put(m, byPattern);
    }
    json.put("specs", specs);
    json.put("patterns", experiment.patterns().stream().map(Pattern::cliName).toList());
    json.put("seconds", report.seconds());
    if (!report.search().isEmpty()) {
      List<Map<String, Object>> grid = new ArrayList<>();
      for (RobustnessExperiment.SearchRow r : report.search()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("model", report.label(r.model()));
        row.put("pattern", r.pattern().cliName());
        row.put("spec", r.point().spec());
        row.put("learning_rate", r.point().learningRate());
        row.put("batch_size", r.point().batchSize());
        row.put("validation_l1", r.validationL1());
        row.put("selected", r.selected());
        grid.add(row);
      }
      json.put("search", grid);
    }
    json.put("errors", report.errors());
    json.put("leakage", report.leakage());
    json.put("auc", report.auc());
    json.put("curves", report.curves());
    json.put("ood", report.ood());
    json.put("shifts", report.shifts());
    Path js = dir.resolve("robustness.json");
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(js.toFile(), json);
    files.add(js);
    List<Curve> curves = report.curves();
    for (String model : experiment.models()) {
      String arch = report.label(model);
      for (Pattern p : experiment.patterns()) {
        List<SuccessPlot.Panel> panels = new ArrayList<>();
        for (Curve c : curves) {
          if (c.model().equals(arch) && c.pattern().equals(p.cliName())) {
            panels.add(new SuccessPlot.Panel("space " + c.space(), c.fractions(), c.success(), c.transfer()));
          }
        }
        Path png = dir.resolve("success-" + arch.replaceAll("[^A-Za-z0-9.=-]+", "_") + "-" + p.cliName() + ".png");
        SuccessPlot.write(png, arch + " " + p.cliName() + " (" + experiment.scale().cliName()
            + ", mean ± s.e. over " + experiment.seeds() + " seeds)", panels);
        files.add(png);
      }
    }
    return files;
  }

  public static String markdown(RobustnessReport report) {
    RobustnessExperiment experiment = report.experiment();
    double seconds = report.seconds();
    List<RobustnessExperiment.SearchRow> search = report.search();
    StringBuilder sb = new StringBuilder();
    Scale s = experiment.scale();
    sb.append("# Adversarial robustness of subgraph counting — ").append(experiment.experimentId()).append("\n\n");
    sb.append(String.format(Locale.ROOT, "Scale `%s`: %d graphs per dataset (split 30/20/50), %d seeds, "
        + "at most %d epochs (plateau decay, early stopping on validation ℓ1), attacks on up to %d correctly predicted test graphs of `%s`, beam %d for P^c/P^s "
        + "(greedy for P), %s candidate flips per beam member, δ = 1, budgets 1/5/10/25%% of the mean "
        + "edge count. An attack searches its whole budget and returns its final beam's best graph; NR is the area "
        + "under its success rate over the budget fractions, over the unity area. Total %.1f s.%n%n", s.cliName(), experiment.datasetSize(), experiment.seeds(), experiment.maxEpochs(), s.attacked(),
        s.attackDataset(), s.beamWidth(), s.candidatesPerMember() == 0 ? "all" : String.valueOf(s.candidatesPerMember()),
        seconds));
    if (!search.isEmpty()) {
      sb.append("## Hyper-parameter search (`--search`)\n\nGrid ").append(experiment.grid().describe())
          .append("; each point trained with every seed, selected by its mean best-epoch validation ℓ1 over seeds"
              + " (**bold**: the point whose models are attacked and reported below).\n\n"
              + "| model | pattern | spec | learning rate | batch | validation ℓ1 | selected |\n|---|---|---|---|---|---|---|\n");
      for (RobustnessExperiment.SearchRow r : search) {
        String v = pm(r.validationL1());
        sb.append(String.format(Locale.ROOT, "| %s | %s | `%s` | %s | %d | %s | %s |%n", report.label(r.model()),
            r.pattern().cliName(), r.point().spec(), Float.toString(r.point().learningRate()), r.point().batchSize(),
            r.selected() ? "**" + v + "**" : v, r.selected() ? "yes" : ""));
      }
      sb.append('\n');
    }
    sb.append("## Test errors (Table 3)\n\n| model | pattern | dataset | ℓ1 | ℓc | paper ℓ1 | correct test graphs | best epoch | train s |\n|---|---|---|---|---|---|---|---|---|\n");
    for (ErrorRow r : report.errors()) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %d | %d | %.1f |%n", r.model(), r.pattern(),
          r.dataset(), pm(r.l1()), pm(r.lc()), num(r.paperL1()), r.meanCorrectTest(), r.meanBestEpoch(), r.meanTrainSeconds()));
    }
    sb.append("\nIsomorphic train/test leakage (test graphs with an isomorphic copy in train):");
    for (LeakageRow r : report.leakage()) {
      sb.append(String.format(Locale.ROOT, " `%s` %d of %d (%.2f%%);", r.dataset(), r.leakedTest(), r.test(),
          r.leakedPct()));
    }
    sb.setLength(sb.length() - 1);
    sb.append(".\n");
    sb.append("\n## AUC of success rate over budget (Table 1)\n\n| model | pattern | space | NR | NR (tr.) | attacked graphs | attack s |\n|---|---|---|---|---|---|---|\n");
    for (AucRow r : report.auc()) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %d | %.1f |%n", r.model(), r.pattern(), r.space(),
          pm(r.nr()), pm(r.nrTransfer()), r.attacked(), r.meanAttackSeconds()));
    }
    sb.append("\n## Success rate by budget (Fig. 5; `success-*.png`)\n\n| model | pattern | space | budget | flips | success | transfer |\n|---|---|---|---|---|---|---|\n");
    for (Curve c : report.curves()) {
      for (int b = 0; b < c.fractions().length; b++) {
        sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f%% | %s | %s | %s |%n", c.model(), c.pattern(), c.space(),
            c.fractions()[b] * 100, b < c.budgets().length ? String.valueOf(c.budgets()[b]) : "-",
            pm(c.success()[b]), pm(c.transfer()[b])));
      }
    }
    if (experiment.ood()) {
      sb.append("\n## Out of distribution (Table 2): d1 = ER(10, 0.3), d2 = ER(10, 0.8)\n\n| model | pattern | setting | ℓ1 | ℓc |\n|---|---|---|---|---|\n");
      for (OodRow r : report.ood()) {
        sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", r.model(), r.pattern(), r.setting(), pm(r.l1()), pm(r.lc())));
      }
    }
    sb.append("\n## Shift of transferring adversarial examples (Tables 5, 6; Welch t-test)\n\n"
        + "p-values from fewer than " + MIN_SHIFT_SAMPLES + " samples are marked with *.\n\n"
        + "| model | pattern | quantity | space | budget | n | clean mean | adversarial mean | p |\n|---|---|---|---|---|---|---|---|---|\n");
    for (ShiftRow r : report.shifts()) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.0f%% | %d | %s | %s | %s%s |%n", r.model(), r.pattern(),
          r.quantity(), r.space(), r.fraction() * 100, r.n(), num(r.meanClean()), num(r.meanAdversarial()),
          num(r.pValue()), r.n() < MIN_SHIFT_SAMPLES && !Double.isNaN(r.pValue()) ? "*" : ""));
    }
    return sb.toString();
  }

  static String pm(MeanStd s) {
    if (s == null || Double.isNaN(s.mean())) {
      return "-";
    }
    return num(s.mean()) + " ± " + num(s.se());
  }

  static String num(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    if (v != 0 && (Math.abs(v) < 0.01 || Math.abs(v) >= 1e4)) {
      return String.format(Locale.ROOT, "%.2e", v);
    }
    return String.format(Locale.ROOT, "%.3f", v);
  }
}
