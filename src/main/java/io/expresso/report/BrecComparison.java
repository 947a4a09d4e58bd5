package io.expresso.report;

import io.expresso.suite.BrecPaperResults;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A configuration's best seed beside BREC's Table 2, as cells for the report and the terminal:
 * our categories (Regular = simple + strongly regular, then 4-Vertex Condition and Distance
 * Regular apart), the paper's 140-pair "Regular (paper grouping)", and the total. The paper does
 * not split its Regular, so our three regular rows have no paper cell of their own.
 */
public final class BrecComparison {

  /** The rows in BREC's column order, each category only when the suite has it. */
  static final List<String> ORDER = java.util.stream.Stream.concat(BrecPaperResults.COMPARISON_ROWS.stream(),
      java.util.stream.Stream.of("total")).toList();

  /** One row: our counts, and the paper's count when it has one for the row. */
  public record Line(SeedLeaderboard.CategoryCounts ours, Optional<Integer> paper, int paperSize) {

    /** Our accuracy: reliably distinguished pairs of the best seed over its pairs; NaN without pairs. */
    public double accuracy() {
      return ours.pairs() == 0 ? Double.NaN : (double) ours.reliablyDistinguished() / ours.pairs();
    }

    /** The paper's accuracy over its own category size; NaN where it has no count. */
    public double paperAccuracy() {
      return paper.isPresent() && paperSize > 0 ? (double) paper.get() / paperSize : Double.NaN;
    }
  }

  private BrecComparison() {}

  /** The lines of a BREC configuration, in {@link #ORDER}. */
  public static List<Line> lines(SeedLeaderboard.Entry e) {
    List<Line> out = new ArrayList<>();
    for (String name : ORDER) {
      Optional<SeedLeaderboard.CategoryCounts> ours = switch (name) {
        case "Regular (paper grouping)" -> e.paperRegular();
        case "total" -> Optional.of(e.total());
        default -> e.bestSeedCategories().stream().filter(c -> c.category().equals(name)).findFirst();
      };
      if (ours.isEmpty()) {
        continue;
      }
      String paperName = BrecPaperResults.paperName(name);
      out.add(new Line(ours.get(), e.paper().flatMap(p -> p.count(paperName)), BrecPaperResults.pairs(paperName)));
    }
    return out;
  }

  /** The header of {@link #cells}. */
  public static List<String> header(SeedLeaderboard.Entry e) {
    String paper = e.paper().map(p -> "paper: " + p.label()).orElse("paper (not in Table 2)");
    return List.of("category", "pairs", "ours (seed " + e.bestSeed() + ")", "ours %", paper, "paper %");
  }

  /** One row of cells per line: category, pairs, ours, ours %, paper (of its size), paper %. */
  public static List<List<String>> cells(SeedLeaderboard.Entry e) {
    List<List<String>> rows = new ArrayList<>();
    for (Line l : lines(e)) {
      rows.add(List.of(l.ours().category(), String.valueOf(l.ours().pairs()),
          String.valueOf(l.ours().reliablyDistinguished()), percent(l.accuracy()),
          l.paper().map(p -> p + "/" + l.paperSize()).orElse("-"), percent(l.paperAccuracy())));
    }
    return rows;
  }

  /**
   * One line on the configuration's seeds: how many, the best one, and BREC's verdict.
   * For example "3 seeds (0..2), best seed 1 by BREC's rule; does NOT count: seed 2 failed reliability".
   */
  public static String verdict(SeedLeaderboard.Entry e) {
    List<Long> seeds = e.configuration().seeds().stream().map(io.expresso.stats.SeedRun::seed).toList();
    String which = seeds.size() == 1 ? "seed " + seeds.get(0)
        : seeds.size() + " seeds (" + seeds.get(0) + ".." + seeds.get(seeds.size() - 1) + "), best seed " + e.bestSeed()
            + " by BREC's rule";
    if (e.counts()) {
      return which + "; counts: no seed failed reliability";
    }
    List<Long> withErrors = e.seedsFailingOnlyThroughErrors();
    List<Long> failing = e.configuration().failingSeeds().stream().filter(s -> !withErrors.contains(s)).toList();
    List<String> why = new ArrayList<>();
    if (!failing.isEmpty()) {
      why.add("seed" + (failing.size() == 1 ? " " : "s ") + join(failing) + " failed reliability");
    }
    if (!withErrors.isEmpty()) {
      why.add("seed" + (withErrors.size() == 1 ? " " : "s ") + join(withErrors)
          + " only through pairs that ended in an error (resume to rerun them)");
    }
    return which + "; does NOT count: " + String.join("; ", why);
  }

  private static String join(List<Long> v) {
    return String.join(", ", v.stream().map(String::valueOf).toList());
  }

  static String percent(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", 100 * v);
  }
}
