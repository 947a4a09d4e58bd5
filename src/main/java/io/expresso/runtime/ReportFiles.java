package io.expresso.runtime;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.expresso.proto.v1.Result;
import io.expresso.report.Escape;
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
 * HTML summary. Strings from messages pass {@link Escape} in the Markdown and HTML.
 */
public final class ReportFiles {

  private static final JsonFormat.Printer JSON = JsonFormat.printer().preservingProtoFieldNames()
      .omittingInsignificantWhitespace();

  private ReportFiles() {}

  /** Writes the files into {@code dir} (created if missing) and returns their paths. */
  public static List<Path> write(Path dir, ResultSummary summary) throws IOException {
    Files.createDirectories(dir);
    String base = safe(summary.experiment());
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
    Files.writeString(md, markdown(summary), StandardCharsets.UTF_8);
    Path html = dir.resolve(base + ".report.html");
    Files.writeString(html, html(summary), StandardCharsets.UTF_8);
    return List.of(jsonl, json, md, html);
  }

  public static String json(Result r) {
    try {
      return JSON.print(r);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot print result " + r.getTaskId() + " as JSON: " + e.getMessage(), e);
    }
  }

  static String markdown(ResultSummary s) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Experiment ").append(md(s.experiment())).append("\n\n");
    sb.append(String.format(Locale.ROOT, "%d unique results, %d duplicates in report, %d errors.%n%n",
        s.uniqueResults(), s.duplicatesInReport(), s.errors()));
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
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Expresso: ")
        .append(esc(s.experiment())).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}"
            + "td.n{text-align:right}</style></head><body>\n");
    sb.append("<h1>Experiment ").append(esc(s.experiment())).append("</h1>\n");
    sb.append(String.format(Locale.ROOT, "<p>%d unique results, %d duplicates in report, %d errors.</p>%n",
        s.uniqueResults(), s.duplicatesInReport(), s.errors()));
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
