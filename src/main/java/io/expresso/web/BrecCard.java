package io.expresso.web;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.stats.ConfigurationResult;
import io.expresso.suite.BrecPaperResults;
import io.expresso.suite.SuiteSpecs;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One configuration (a model on a suite) as the live page shows it: its best seed by BREC's rule
 * ({@link ConfigurationResult#beats}), that seed's pairs per category — in BREC's order, beside
 * the paper's Table 2 where the suite is BREC and the paper ran the model — and the seeds that
 * failed reliability, so a card never pools seeds the way no paper counts them.
 */
final class BrecCard {

  private static final String PAPER_REGULAR = "Regular (paper grouping)";

  private BrecCard() {}

  /**
   * @param bySeed seed → category (first-seen order) → {evaluated, distinguished, reliability
   *     failures, distinguished and reliable}
   */
  static void write(ObjectNode out, String suiteId, String model, Map<Long, Map<String, long[]>> bySeed) {
    long best = -1;
    long bestReal = 0;
    long bestDistinguished = 0;
    List<Long> unreliable = new ArrayList<>();
    Set<String> categories = new LinkedHashSet<>();
    for (Map.Entry<Long, Map<String, long[]>> s : bySeed.entrySet()) {
      long[] t = sum(s.getValue().values());
      long real = t[1] - t[2];
      if (best < 0 || ConfigurationResult.beats(real, t[1], bestReal, bestDistinguished)) {
        best = s.getKey();
        bestReal = real;
        bestDistinguished = t[1];
      }
      if (t[2] > 0) {
        unreliable.add(s.getKey());
      }
      categories.addAll(s.getValue().keySet());
    }
    Map<String, long[]> seed = bySeed.get(best);
    boolean brec = BrecPaperResults.isBrec(suiteId, List.copyOf(categories));
    Optional<BrecPaperResults.Row> paper = brec ? BrecPaperResults.forMethod(model) : Optional.empty();
    out.put("suite", SuiteSpecs.shortName(suiteId)).put("suite_id", suiteId).put("model", model)
        .put("seeds", bySeed.size()).put("best_seed", best).put("brec", brec);
    if (paper.isPresent()) {
      out.put("paper_model", paper.get().model());
    } else {
      out.putNull("paper_model");
    }
    unreliable.forEach(out.putArray("unreliable_seeds")::add);
    ArrayNode rows = out.putArray("rows");
    List<String> names = brec ? BrecPaperResults.COMPARISON_ROWS : List.copyOf(categories);
    for (String name : names) {
      long[] c;
      if (name.equals(PAPER_REGULAR)) {
        List<long[]> parts = BrecPaperResults.PAPER_REGULAR.stream().filter(seed::containsKey).map(seed::get).toList();
        if (parts.isEmpty()) {
          continue;
        }
        c = sum(parts);
      } else if (brec && !categories.contains(name)) {
        continue;
      } else {
        c = seed.getOrDefault(name, new long[4]);
      }
      String paperName = BrecPaperResults.paperName(name);
      row(rows.addObject(), name, c, paper.flatMap(p -> p.count(paperName)), BrecPaperResults.pairs(paperName));
    }
    row(out.putObject("total"), "total", sum(seed.values()), paper.flatMap(p -> p.count("total")),
        BrecPaperResults.pairs("total"));
  }

  private static void row(ObjectNode row, String name, long[] c, Optional<Integer> paper, int paperPairs) {
    row.put("category", name).put("pairs", c[0]).put("distinguished", c[1]).put("reliability_failures", c[2])
        .put("reliably_distinguished", c[3]);
    if (paper.isPresent()) {
      row.put("paper", paper.get()).put("paper_pairs", paperPairs);
    } else {
      row.putNull("paper").putNull("paper_pairs");
    }
  }

  private static long[] sum(Iterable<long[]> counts) {
    long[] t = new long[4];
    for (long[] c : counts) {
      for (int i = 0; i < 4; i++) {
        t[i] += c[i];
      }
    }
    return t;
  }
}
