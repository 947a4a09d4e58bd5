package io.expresso.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * People-readable tables of a {@link ResultSummary}: one per method (its best seed's pairs, with
 * BREC's verdict over its seeds and, on BREC, the paper's row), on BREC the leaderboard across
 * them ({@link LeaderboardTable}), then synthetic and errors.
 * Strings from messages reach the terminal only through {@link Table} or {@link Escape#terminal}.
 */
public final class ResultTables {

  private ResultTables() {}

  public static String render(ResultSummary s) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "experiment %s: %d unique results, %d duplicates in report, %d errors%n",
        Escape.terminal(s.experiment()), s.uniqueResults(), s.duplicatesInReport(), s.errors()));
    sb.append(s.duplicateRecordsLine()).append(System.lineSeparator());
    for (Map.Entry<String, List<ResultSummary.Row>> e : s.rowsByMethod().entrySet()) {
      String method = e.getKey();
      if (method.equals("synthetic") || method.equals("?") || method.equals("train") || method.equals("attack")) {
        continue;
      }
      Table t = new Table("category", "pairs", "distinguished", "%", "reliable", "errors");
      int pairs = 0;
      int dist = 0;
      int rel = 0;
      int err = 0;
      for (ResultSummary.Row r : e.getValue()) {
        t.row(r.category(), String.valueOf(r.tasks()), String.valueOf(r.distinguished()),
            percent(r.distinguished(), r.tasks() - r.errors()), String.valueOf(r.reliable()), String.valueOf(r.errors()));
        pairs += r.tasks();
        dist += r.distinguished();
        rel += r.reliable();
        err += r.errors();
      }
      t.separator().row("total", String.valueOf(pairs), String.valueOf(dist), percent(dist, pairs - err),
          String.valueOf(rel), String.valueOf(err));
      sb.append("\nmethod ").append(Escape.terminal(method)).append('\n').append(t.render());
      for (SeedLeaderboard.Entry entry : s.leaderboard()) {
        if (entry.label().equals(method)) {
          sb.append(leaderboard(entry));
        }
      }
    }
    sb.append(LeaderboardTable.render(s.leaderboard()));
    for (ResultSummary.Row r : s.rows()) {
      if (r.method().equals("synthetic")) {
        sb.append(String.format(Locale.ROOT, "%nsynthetic tasks: %d (%d errors); publish to finish p50 %s, p99 %s%n",
            r.tasks(), r.errors(), seconds(s.syntheticLatency(0.5)), seconds(s.syntheticLatency(0.99))));
      } else if (r.method().equals("?")) {
        sb.append(String.format(Locale.ROOT, "%s tasks: %d (%d errors)%n", Escape.terminal(r.category()), r.tasks(),
            r.errors()));
      }
    }
    // train before attack whatever order the results came in: the attacks are on those models
    for (String kind : List.of("train", "attack")) {
      for (ResultSummary.Row r : s.rows()) {
        if (!r.method().equals(kind)) {
          continue;
        }
        sb.append(String.format(Locale.ROOT, "%n%s tasks: %d (%d errors)%s%n", kind, r.tasks(), r.errors(),
            kind.equals("attack") ? "; fooled = attacked graphs with an adversarial example within each budget" : ""));
        sb.append(kind.equals("train") ? train(s.trainRows()) : attack(s.attackRows()));
      }
    }
    if (!s.byPrecision().isEmpty()) {
      StringBuilder line = new StringBuilder();
      s.byPrecision().forEach((k, v) -> line.append(line.length() == 0 ? "" : ", ").append(Escape.terminal(k))
          .append(" (").append(v).append(v == 1 ? " result)" : " results)"));
      sb.append("\nran on: ").append(line).append('\n');
    }
    if (s.byWorker().size() > 1) {
      Table t = new Table("worker device", "results");
      s.byWorker().forEach((k, v) -> t.row(k, String.valueOf(v)));
      sb.append('\n').append(t.render());
    }
    if (!s.errorsByReason().isEmpty()) {
      Table t = new Table("error reason", "results");
      s.errorsByReason().forEach((k, v) -> t.row(k, String.valueOf(v)));
      sb.append('\n').append(t.render());
    }
    return sb.toString();
  }

  /**
   * Under several seeds, which seed the table counts and BREC's verdict; on BREC, the best seed
   * beside the paper's row with the paper's 140-pair Regular.
   */
  public static String leaderboard(SeedLeaderboard.Entry e) {
    StringBuilder sb = new StringBuilder();
    if (e.seeds() > 1 || e.brec()) {
      sb.append(Escape.terminal(BrecComparison.verdict(e))).append('\n');
    }
    if (e.brec()) {
      Table t = new Table(BrecComparison.header(e).toArray(String[]::new));
      for (List<String> row : BrecComparison.cells(e)) {
        if (row.get(0).equals("total")) {
          t.separator();
        }
        t.row(row.toArray(String[]::new));
      }
      sb.append(t.render());
    }
    return sb.toString();
  }

  /** One row per trained model: what to attack (checkpoint) and how well it counts. */
  static String train(List<ResultSummary.TrainRow> rows) {
    if (rows.isEmpty()) {
      return "";
    }
    Table t = new Table("checkpoint", "model", "pattern", "dataset", "seed", "test l1", "test lc", "correct",
        "epochs", "task s");
    for (ResultSummary.TrainRow r : rows) {
      t.row(r.checkpoint(), r.model(), r.pattern(), r.dataset(), String.valueOf(r.seed()), number(r.testL1()),
          number(r.testLc()), String.valueOf(r.correctTest()), String.valueOf(r.epochs()),
          String.format(Locale.ROOT, "%.1f", r.seconds()));
    }
    return t.render();
  }

  /** One row per attacked model and space: budgets in flips, how many graphs each fooled, NR. */
  static String attack(List<ResultSummary.AttackRow> rows) {
    if (rows.isEmpty()) {
      return "";
    }
    Table t = new Table("checkpoint", "model", "space", "beam", "budgets (flips)", "fooled", "attacked", "NR",
        "NR (tr.)", "task s");
    for (ResultSummary.AttackRow r : rows) {
      t.row(r.checkpoint(), r.model(), r.space(), String.valueOf(r.beamWidth()), join(r.budgets()),
          join(r.fooled()), String.valueOf(r.attacked()), number(r.nr()), number(r.nrTransfer()),
          String.format(Locale.ROOT, "%.1f", r.seconds()));
    }
    return t.render();
  }

  private static String join(int[] v) {
    StringBuilder sb = new StringBuilder();
    for (int x : v) {
      sb.append(sb.length() == 0 ? "" : ",").append(x);
    }
    return sb.toString();
  }

  private static String number(double v) {
    if (!Double.isFinite(v)) {
      return "-";
    }
    return Math.abs(v) < 0.01 && v != 0 ? String.format(Locale.ROOT, "%.2e", v) : String.format(Locale.ROOT, "%.3f", v);
  }

  private static String percent(int part, int whole) {
    return whole <= 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
  }

  private static String seconds(double s) {
    return Double.isNaN(s) ? "-" : String.format(Locale.ROOT, "%.3f s", s);
  }
}
