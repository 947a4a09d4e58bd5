package io.expresso.report;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.expresso.proto.v1.Result;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes an experiment's report files: {@code <experiment>.results.jsonl} (one result per line,
 * protobuf JSON with proto field names), {@code <experiment>.summary.json}, a Markdown and an
 * HTML summary, and for an experiment on BREC {@code <experiment>.accuracy.png}, accuracy per
 * category per model beside the paper's ({@link CategoryBarPlot}). Strings from messages pass
 * {@link Escape} in the Markdown and HTML.
 */
public final class ReportFiles {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReportFiles.class);

  private static final JsonFormat.Printer JSON = JsonFormat.printer().preservingProtoFieldNames()
      .omittingInsignificantWhitespace();

  private ReportFiles() {}

  /** Writes the files into {@code dir} (created if missing) and returns their paths. */
  public static List<Path> write(Path dir, ResultSummary summary) throws IOException {
    return write(dir, summary, ReportFiles::writePlot);
  }

  /** Draws the accuracy plot into a file. */
  @FunctionalInterface
  interface PlotWriter {
    void write(Path png, ResultSummary s) throws IOException;
  }

  static List<Path> write(Path dir, ResultSummary summary, PlotWriter plot) throws IOException {
    Files.createDirectories(dir);
    String base = safe(summary.experiment());
    List<Path> written = new java.util.ArrayList<>();
    // the plot first: where this Java cannot draw, the reports say so instead of linking a missing file
    String noPlot = null;
    if (!brecEntries(summary).isEmpty()) {
      Path png = dir.resolve(plotName(summary));
      try {
        plot.write(png, summary);
        written.add(png);
      } catch (LinkageError | java.awt.AWTError | InternalError e) {
        // seen on a GPU host: a jlink'd runtime whose font library needs a libharfbuzz the host lacks
        noPlot = "no plot: this Java runtime cannot draw text here (" + e.getClass().getSimpleName() + ": "
            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")";
        LOG.warn("{}; the tables are complete", noPlot);
      }
    }
    Path jsonl = dir.resolve(base + ".results.jsonl");
    try (BufferedWriter w = Files.newBufferedWriter(jsonl, StandardCharsets.UTF_8)) {
      for (Result r : summary.results()) {
        w.write(json(r));
        w.newLine();
      }
    }
    Path json = dir.resolve(base + ".summary.json");
    Files.writeString(json, summary.json() + "\n", StandardCharsets.UTF_8);
    Path md = dir.resolve(base + ".report.md");
    Files.writeString(md, markdown(summary, noPlot), StandardCharsets.UTF_8);
    Path html = dir.resolve(base + ".report.html");
    Files.writeString(html, html(summary, noPlot), StandardCharsets.UTF_8);
    written.addAll(0, List.of(jsonl, json, md, html));
    return List.copyOf(written);
  }

  /** The configurations run on BREC: those get the paper's columns and the plot. */
  static List<SeedLeaderboard.Entry> brecEntries(ResultSummary s) {
    return s.leaderboard().stream().filter(SeedLeaderboard.Entry::brec).toList();
  }

  static String plotName(ResultSummary s) {
    return safe(s.experiment()) + ".accuracy.png";
  }

  /** Short group names: the plot's groups are narrow. */
  private static final Map<String, String> PLOT_NAMES = Map.of("Regular (paper grouping)", "Regular (140)",
      "4-Vertex Condition", "4-Vertex", "Distance Regular", "Dist. regular");

  /** Grouped bars: one group per BREC row any configuration has, one solid (ours) and pale (paper) bar per model. */
  static void writePlot(Path png, ResultSummary s) throws IOException {
    List<SeedLeaderboard.Entry> entries = brecEntries(s);
    List<String> groups = new java.util.ArrayList<>();
    for (String name : BrecComparison.ORDER) {
      if (entries.stream().anyMatch(e -> BrecComparison.lines(e).stream()
          .anyMatch(l -> l.ours().category().equals(name)))) {
        groups.add(name);
      }
    }
    List<CategoryBarPlot.Series> series = new java.util.ArrayList<>();
    for (SeedLeaderboard.Entry e : entries) {
      double[] ours = new double[groups.size()];
      double[] paper = new double[groups.size()];
      java.util.Arrays.fill(ours, Double.NaN);
      java.util.Arrays.fill(paper, Double.NaN);
      for (BrecComparison.Line l : BrecComparison.lines(e)) {
        int i = groups.indexOf(l.ours().category());
        ours[i] = l.accuracy();
        paper[i] = l.paperAccuracy();
      }
      String label = e.label() + " (best seed " + e.bestSeed() + (e.counts() ? "" : ", does NOT count") + ")";
      series.add(new CategoryBarPlot.Series(label, e.paper().map(p -> p.label()).orElse(null), ours, paper));
    }
    CategoryBarPlot.write(png, "Experiment " + s.experiment() + ": accuracy per BREC category",
        groups.stream().map(g -> PLOT_NAMES.getOrDefault(g, g)).toList(), series);
  }

  public static String json(Result r) {
    try {
      return JSON.print(r);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot print result " + r.getTaskId() + " as JSON: " + e.getMessage(), e);
    }
  }

  static String markdown(ResultSummary s) {
    return markdown(s, null);
  }

  /** The Markdown report; {@code noPlot}, if not null, says why the plot is missing. */
  static String markdown(ResultSummary s, String noPlot) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Experiment ").append(md(s.experiment())).append("\n\n");
    sb.append(String.format(Locale.ROOT, "%d unique results, %d duplicates in report, %d errors.%n%n%s.%n",
        s.uniqueResults(), s.duplicatesInReport(), s.errors(), s.duplicateRecordsLine()));
    StringBuilder ranOn = new StringBuilder();
    s.byPrecision().forEach((k, v) -> ranOn.append(ranOn.length() == 0 ? "" : ", ").append(md(k)).append(": ").append(v));
    sb.append(ranOn.length() == 0 ? "" : "Ran on (device, arithmetic): " + ranOn + ".\n").append('\n');
    sb.append("| method | category | tasks | distinguished | % | reliable | errors |\n");
    sb.append("|---|---|---:|---:|---:|---:|---:|\n");
    for (ResultSummary.Row r : s.rows()) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %d |%n", md(r.method()), md(r.category()),
          r.tasks(), pairCell(r, r.distinguished()), percent(r), pairCell(r, r.reliable()), r.errors()));
    }
    if (!s.errorsByReason().isEmpty()) {
      sb.append("\nErrors by reason:\n\n");
      for (Map.Entry<String, Integer> e : s.errorsByReason().entrySet()) {
        sb.append("- ").append(md(e.getKey())).append(": ").append(e.getValue()).append('\n');
      }
    }
    if (!Double.isNaN(s.syntheticLatency(0.5))) {
      sb.append(String.format(Locale.ROOT, "%nSynthetic tasks, publish to finish: p50 %.3f s, p99 %.3f s.%n",
          s.syntheticLatency(0.5), s.syntheticLatency(0.99)));
    }
    markdownLeaderboard(sb, s, noPlot);
    for (RobustTable t : robustTables(s)) {
      sb.append("\n## ").append(md(t.title())).append("\n\n| ")
          .append(String.join(" | ", t.header().stream().map(ReportFiles::md).toList())).append(" |\n|")
          .append("---|".repeat(t.header().size())).append('\n');
      for (List<String> row : t.rows()) {
        sb.append("| ").append(String.join(" | ", row.stream().map(ReportFiles::md).toList())).append(" |\n");
      }
    }
    return sb.toString();
  }

  /** Seeds and verdicts when any method ran under several seeds or on BREC; then each BREC configuration beside the paper. */
  private static void markdownLeaderboard(StringBuilder sb, ResultSummary s, String noPlot) {
    if (s.leaderboard().stream().noneMatch(e -> e.seeds() > 1 || e.brec())) {
      return;
    }
    sb.append("\n## Seeds (BREC's rule: a configuration counts only if no seed failed reliability;"
        + " tables show its best seed)\n\n");
    for (SeedLeaderboard.Entry e : s.leaderboard()) {
      sb.append("- ").append(md(e.label())).append(": ").append(md(BrecComparison.verdict(e))).append('\n');
    }
    List<SeedLeaderboard.Entry> ranked = LeaderboardTable.ranked(s.leaderboard());
    if (!ranked.isEmpty()) {
      List<String> header = LeaderboardTable.header(ranked);
      sb.append("\n## BREC leaderboard\n\n| ").append(String.join(" | ", header.stream().map(ReportFiles::md).toList()))
          .append(" |\n|---|---|").append("---:|".repeat(header.size() - 2)).append('\n');
      for (List<String> row : LeaderboardTable.rows(ranked)) {
        sb.append("| ").append(String.join(" | ", row.stream().map(ReportFiles::md).toList())).append(" |\n");
      }
      sb.append('\n').append(md(LeaderboardTable.NOTE)).append('\n');
    }
    for (SeedLeaderboard.Entry e : brecEntries(s)) {
      List<String> header = BrecComparison.header(e);
      sb.append("\n## ").append(md(e.label())).append(" beside BREC's Table 2\n\n| ")
          .append(String.join(" | ", header.stream().map(ReportFiles::md).toList())).append(" |\n|---|")
          .append("---:|".repeat(header.size() - 1)).append('\n');
      for (List<String> row : BrecComparison.cells(e)) {
        sb.append("| ").append(String.join(" | ", row.stream().map(ReportFiles::md).toList())).append(" |\n");
      }
    }
    if (!brecEntries(s).isEmpty()) {
      sb.append("\nOurs: pairs reliably distinguished by the best seed. Regular is simple and strongly regular"
          + " (100 pairs); the paper's Regular (140) adds 4-Vertex Condition and Distance Regular.\n\n")
          .append(noPlot != null ? "(" + md(noPlot) + ".)"
              : "![accuracy per category and model](" + plotName(s) + ")").append('\n');
    }
  }

  private static void htmlLeaderboard(StringBuilder sb, ResultSummary s, String noPlot) {
    if (s.leaderboard().stream().noneMatch(e -> e.seeds() > 1 || e.brec())) {
      return;
    }
    sb.append("<h2>Seeds (BREC's rule: a configuration counts only if no seed failed reliability;"
        + " tables show its best seed)</h2><ul>\n");
    for (SeedLeaderboard.Entry e : s.leaderboard()) {
      sb.append("<li>").append(esc(e.label())).append(": ").append(esc(BrecComparison.verdict(e))).append("</li>\n");
    }
    sb.append("</ul>\n");
    List<SeedLeaderboard.Entry> ranked = LeaderboardTable.ranked(s.leaderboard());
    if (!ranked.isEmpty()) {
      sb.append("<h2>BREC leaderboard</h2>\n<table class=leaderboard><tr>");
      LeaderboardTable.header(ranked).forEach(h -> sb.append("<th>").append(esc(h)).append("</th>"));
      sb.append("</tr>\n");
      for (List<String> row : LeaderboardTable.rows(ranked)) {
        sb.append("<tr><td>").append(esc(row.get(0))).append("</td><td>").append(esc(row.get(1))).append("</td>");
        row.subList(2, row.size()).forEach(c -> sb.append("<td class=n>").append(esc(c)).append("</td>"));
        sb.append("</tr>\n");
      }
      sb.append("</table>\n<p>").append(esc(LeaderboardTable.NOTE)).append("</p>\n");
    }
    for (SeedLeaderboard.Entry e : brecEntries(s)) {
      sb.append("<h2>").append(esc(e.label())).append(" beside BREC's Table 2</h2>\n<table><tr>");
      BrecComparison.header(e).forEach(h -> sb.append("<th>").append(esc(h)).append("</th>"));
      sb.append("</tr>\n");
      for (List<String> row : BrecComparison.cells(e)) {
        sb.append("<tr><td>").append(esc(row.get(0))).append("</td>");
        row.subList(1, row.size()).forEach(c -> sb.append("<td class=n>").append(esc(c)).append("</td>"));
        sb.append("</tr>\n");
      }
      sb.append("</table>\n");
    }
    if (!brecEntries(s).isEmpty()) {
      sb.append("<p>Ours: pairs reliably distinguished by the best seed. Regular is simple and strongly regular"
          + " (100 pairs); the paper's Regular (140) adds 4-Vertex Condition and Distance Regular.</p>\n")
          .append(noPlot != null ? "<p>(" + esc(noPlot) + ".)</p>\n"
              : "<p><img src=\"" + esc(plotName(s)) + "\" alt=\"accuracy per category and model\"></p>\n");
    }
  }

  private static final List<String> TRAIN_HEADER = List.of("checkpoint", "model", "pattern", "dataset", "seed",
      "test l1", "test lc", "correct", "epochs", "task s");
  private static final List<String> ATTACK_HEADER = List.of("checkpoint", "model", "space", "beam",
      "budgets (flips)", "fooled", "attacked", "NR", "NR (tr.)", "task s");

  /** A table of train or attack results, as cells. */
  record RobustTable(String title, List<String> header, List<List<String>> rows) {}

  /** The trained models and the attacks on them, each table only when there are such results. */
  static List<RobustTable> robustTables(ResultSummary s) {
    List<RobustTable> tables = new java.util.ArrayList<>();
    if (!s.trainRows().isEmpty()) {
      List<List<String>> rows = new java.util.ArrayList<>();
      for (ResultSummary.TrainRow t : s.trainRows()) {
        rows.add(List.of(t.checkpoint(), t.model(), t.pattern(), t.dataset(), String.valueOf(t.seed()), num(t.testL1()),
            num(t.testLc()), String.valueOf(t.correctTest()), String.valueOf(t.epochs()), num(t.seconds())));
      }
      tables.add(new RobustTable("Trained models", TRAIN_HEADER, rows));
    }
    if (!s.attackRows().isEmpty()) {
      List<List<String>> rows = new java.util.ArrayList<>();
      for (ResultSummary.AttackRow a : s.attackRows()) {
        rows.add(List.of(a.checkpoint(), a.model(), a.space(), String.valueOf(a.beamWidth()), ints(a.budgets()),
            ints(a.fooled()), String.valueOf(a.attacked()), num(a.nr()), num(a.nrTransfer()), num(a.seconds())));
      }
      tables.add(new RobustTable("Attacks", ATTACK_HEADER, rows));
    }
    return tables;
  }

  private static String num(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.3f", v) : "-";
  }

  private static String ints(int[] v) {
    return java.util.Arrays.stream(v).mapToObj(String::valueOf).collect(java.util.stream.Collectors.joining(","));
  }

  static String html(ResultSummary s) {
    return html(s, null);
  }

  /** The HTML report; {@code noPlot}, if not null, says why the plot is missing. */
  static String html(ResultSummary s, String noPlot) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Expresso: ")
        .append(esc(s.experiment())).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}"
            + "td.n{text-align:right}</style></head><body>\n");
    sb.append("<h1>Experiment ").append(esc(s.experiment())).append("</h1>\n");
    sb.append(String.format(Locale.ROOT, "<p>%d unique results, %d duplicates in report, %d errors.</p>%n<p>%s.</p>%n",
        s.uniqueResults(), s.duplicatesInReport(), s.errors(), s.duplicateRecordsLine()));
    sb.append("<table><tr><th>method</th><th>category</th><th>tasks</th><th>distinguished</th><th>%</th>"
        + "<th>reliable</th><th>errors</th></tr>\n");
    for (ResultSummary.Row r : s.rows()) {
      sb.append("<tr><td>").append(esc(r.method())).append("</td><td>").append(esc(r.category()))
          .append("</td><td class=n>").append(r.tasks())
          .append("</td><td class=n>").append(pairCell(r, r.distinguished()))
          .append("</td><td class=n>").append(percent(r))
          .append("</td><td class=n>").append(pairCell(r, r.reliable()))
          .append("</td><td class=n>").append(r.errors()).append("</td></tr>\n");
    }
    sb.append("</table>\n");
    if (!s.errorsByReason().isEmpty()) {
      sb.append("<h2>Errors by reason</h2><ul>\n");
      s.errorsByReason().forEach((k, v) -> sb.append("<li>").append(esc(k)).append(": ").append(v).append("</li>\n"));
      sb.append("</ul>\n");
    }
    if (!Double.isNaN(s.syntheticLatency(0.5))) {
      sb.append(String.format(Locale.ROOT, "<p>Synthetic tasks, publish to finish: p50 %.3f s, p99 %.3f s.</p>%n",
          s.syntheticLatency(0.5), s.syntheticLatency(0.99)));
    }
    htmlLeaderboard(sb, s, noPlot);
    for (RobustTable t : robustTables(s)) {
      sb.append("<h2>").append(esc(t.title())).append("</h2>\n<table><tr>");
      t.header().forEach(h -> sb.append("<th>").append(esc(h)).append("</th>"));
      sb.append("</tr>\n");
      for (List<String> row : t.rows()) {
        sb.append("<tr>");
        row.forEach(c -> sb.append("<td>").append(esc(c)).append("</td>"));
        sb.append("</tr>\n");
      }
      sb.append("</table>\n");
    }
    sb.append("</body></html>\n");
    return sb.toString();
  }

  static boolean isPairRow(ResultSummary.Row r) {
    return !r.method().equals("synthetic") && !r.method().equals("train") && !r.method().equals("attack")
        && !r.method().equals("?");
  }

  static String pairCell(ResultSummary.Row r, int v) {
    return isPairRow(r) ? String.valueOf(v) : "-";
  }

  static String percent(ResultSummary.Row r) {
    int ok = r.tasks() - r.errors();
    return isPairRow(r) && ok > 0 ? String.format(Locale.ROOT, "%.1f", 100.0 * r.distinguished() / ok) : "-";
  }

  private static String esc(String s) {
    return Escape.html(s);
  }

  private static String md(String s) {
    return Escape.markdown(s);
  }

  private static String safe(String experiment) {
    String s = experiment.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.isEmpty() ? "all" : s;
  }
}
