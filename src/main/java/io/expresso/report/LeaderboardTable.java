package io.expresso.report;

import io.expresso.suite.BrecPaperResults;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * BREC's leaderboard of an experiment on one table: one row per configuration run on BREC (a model
 * or method, built in or a user's module), its best seed by BREC's rule per category in BREC's
 * order ({@link BrecComparison#ORDER}) beside the paper's count where Table 2 has one, and the
 * seeds that failed reliability, told apart from those that fail only through errors. Ranked by the best seed's total, the most first; a tie keeps
 * the experiment's order. The terminal, Markdown and HTML reports print the same cells.
 */
public final class LeaderboardTable {

  /** Short column names for the rows of {@link BrecComparison#ORDER}. */
  private static final java.util.Map<String, String> SHORT = java.util.Map.of("Regular", "Regular (s+str)",
      "4-Vertex Condition", "4-Vertex", "Distance Regular", "Dist. regular", "Regular (paper grouping)",
      "Regular (140)");

  private LeaderboardTable() {}

  /** The configurations of the table, ranked: an experiment's BREC configurations. */
  public static List<SeedLeaderboard.Entry> ranked(List<SeedLeaderboard.Entry> entries) {
    List<SeedLeaderboard.Entry> brec = new ArrayList<>(entries.stream().filter(SeedLeaderboard.Entry::brec).toList());
    brec.sort(Comparator.comparingInt((SeedLeaderboard.Entry e) -> e.total().reliablyDistinguished()).reversed());
    return brec;
  }

  /** The category rows any of the configurations has, in BREC's order, "total" last. */
  static List<String> columns(List<SeedLeaderboard.Entry> ranked) {
    List<String> out = new ArrayList<>();
    for (String name : BrecComparison.ORDER) {
      if (ranked.stream().anyMatch(e -> BrecComparison.lines(e).stream().anyMatch(l -> l.ours().category().equals(name)))) {
        out.add(name);
      }
    }
    return out;
  }

  /**
   * The header: model, the paper's row, seeds, best seed, its pairs, BREC's verdict, the best
   * seed's reliability failures (pairs judged unreliable) and errors (pairs not judged), then one
   * column per category with its pairs (the most any configuration ran) and, where the paper has
   * the category, "ours (paper)".
   */
  public static List<String> header(List<SeedLeaderboard.Entry> ranked) {
    List<String> h = new ArrayList<>(List.of("model", "paper row", "seeds", "best seed", "pairs", "BREC's rule",
        "reliability failures", "errors"));
    for (String c : columns(ranked)) {
      int pairs = ranked.stream().flatMap(e -> BrecComparison.lines(e).stream())
          .filter(l -> l.ours().category().equals(c)).mapToInt(l -> l.ours().pairs()).max().orElse(0);
      boolean paper = BrecPaperResults.pairs(BrecPaperResults.paperName(c)) > 0;
      h.add(SHORT.getOrDefault(c, c) + " /" + pairs + (paper ? " (paper)" : ""));
    }
    return h;
  }

  /** One row of cells per configuration, in {@link #ranked} order. */
  public static List<List<String>> rows(List<SeedLeaderboard.Entry> ranked) {
    List<String> columns = columns(ranked);
    List<List<String>> rows = new ArrayList<>();
    for (SeedLeaderboard.Entry e : ranked) {
      List<String> row = new ArrayList<>();
      row.add(name(e.label()));
      row.add(e.paper().map(p -> p.label()).orElse("-"));
      row.add(String.valueOf(e.seeds()));
      row.add(String.valueOf(e.bestSeed()));
      row.add(String.valueOf(e.total().pairs())); // a run still filling or cut short: not every model has every pair
      row.add(rule(e));
      row.add(String.valueOf(e.total().judgedReliabilityFailures()));
      row.add(String.valueOf(e.total().errors()));
      List<BrecComparison.Line> lines = BrecComparison.lines(e);
      for (String c : columns) {
        Optional<BrecComparison.Line> l = lines.stream().filter(x -> x.ours().category().equals(c)).findFirst();
        row.add(l.map(LeaderboardTable::cell).orElse("-"));
      }
      rows.add(row);
    }
    return rows;
  }

  /**
   * BREC's verdict: "counts", or why not: the seeds that failed reliability in pairs judged, and
   * those that fail only through errors, e.g. "NOT: 1 seed with errors (resume to rerun them)". An
   * error is an undecided pair for BREC's rule, but a lack of room or time, not a verdict.
   */
  static String rule(SeedLeaderboard.Entry e) {
    if (e.counts()) {
      return "counts";
    }
    int withErrors = e.seedsFailingOnlyThroughErrors().size();
    int failed = e.configuration().failingSeeds().size() - withErrors;
    List<String> why = new ArrayList<>();
    if (failed > 0) {
      why.add(failed + " seed" + (failed == 1 ? "" : "s") + " failed");
    }
    if (withErrors > 0) {
      why.add(withErrors + " seed" + (withErrors == 1 ? "" : "s") + " with errors (resume to rerun them)");
    }
    return "NOT: " + String.join(", ", why);
  }

  /**
   * A configuration as the table names it: a user's module by the first 12 hex digits of its
   * SHA-256, its options left to the per-model tables (the whole spec is over 100 characters).
   */
  static String name(String label) {
    return label.replaceFirst("torchscript:sha256:([0-9a-f]{12})[0-9a-f]*(,[^ ]*)?", "torchscript:$1");
  }

  /** "ours (paper)" where the paper has the row, else "ours". */
  private static String cell(BrecComparison.Line l) {
    String ours = String.valueOf(l.ours().reliablyDistinguished());
    return l.paper().map(p -> ours + " (" + p + ")").orElse(ours);
  }

  /** What the table counts, for a line under it. */
  public static final String NOTE = "Per model its best seed by BREC's rule (most distinguished pairs less"
      + " reliability failures; it counts only if no seed failed reliability, a pair that ended in an error"
      + " counting as failed; the errors are a column of their own): pairs reliably distinguished,"
      + " BREC's Table 2 in parentheses where the paper has the category. Regular (s+str) is simple and"
      + " strongly regular; the paper's Regular (140) adds 4-Vertex Condition and Distance Regular. The paper"
      + " counts all 400 pairs: beside a subset its numbers are an upper reference, not a match.";

  /** The table for a terminal; empty when the experiment ran nothing on BREC. */
  public static String render(List<SeedLeaderboard.Entry> entries) {
    List<SeedLeaderboard.Entry> ranked = ranked(entries);
    if (ranked.isEmpty()) {
      return "";
    }
    Table t = new Table(header(ranked).toArray(String[]::new));
    rows(ranked).forEach(r -> t.row(r.toArray(String[]::new)));
    return "\nBREC leaderboard (" + ranked.size() + " configuration" + (ranked.size() == 1 ? "" : "s") + ")\n"
        + t.render() + NOTE + "\n";
  }
}
