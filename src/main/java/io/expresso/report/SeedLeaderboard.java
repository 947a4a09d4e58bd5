package io.expresso.report;

import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Result;
import io.expresso.stats.ConfigurationResult;
import io.expresso.stats.PairJudgement;
import io.expresso.stats.SeedRun;
import io.expresso.stats.SeedSearch;
import io.expresso.suite.BrecPaperResults;
import io.expresso.suite.SuiteSpecs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An experiment's pair results judged as BREC's leaderboard judges a model: per (suite, method)
 * the results are grouped by seed into {@link SeedRun}s and {@link SeedSearch} picks the best seed
 * and says whether the configuration counts (no seed failed reliability). Counting pairs over all
 * seeds mixed together would report neither the best seed nor any seed at all.
 *
 * <p>A pair result with an error counts as an undecided pair of its seed (neither distinguished
 * nor reliable), as {@code expresso eval} counts one, and in its category's errors: workers keep
 * the pair (suite, index, category, method, seed) in a pair task's error result. An error result
 * without a pair payload (a task that did not decode) cannot be told apart by seed and stays out
 * of the leaderboard.
 */
public final class SeedLeaderboard {

  /**
   * One category under one seed.
   *
   * @param pairs pair results of the category in that seed, errors included
   * @param reliable pairs whose reliability check passed
   * @param reliablyDistinguished pairs distinguished and reliable: what the leaderboard counts
   */
  public record CategoryCounts(String category, int pairs, int distinguished, int reliable,
      int reliablyDistinguished, int errors) {

    /** Pairs that failed reliability (errors included): what BREC's seed rule counts against a seed. */
    public int reliabilityFailures() {
      return pairs - reliable;
    }

    /** Pairs judged and found unreliable: the reliability failures less the errors, which were not judged. */
    public int judgedReliabilityFailures() {
      return pairs - errors - reliable;
    }

    CategoryCounts plus(CategoryCounts o, String name) {
      return new CategoryCounts(name, pairs + o.pairs, distinguished + o.distinguished, reliable + o.reliable,
          reliablyDistinguished + o.reliablyDistinguished, errors + o.errors);
    }
  }

  /**
   * One configuration (a method on a suite) over all its seeds.
   *
   * @param label how tables name it: the method, with the suite's short name when the experiment
   *     ran the method on more than one suite
   * @param configuration every seed's run, judged by BREC's rule
   * @param bestSeedCategories the best seed's counts per category, in suite order
   * @param errorsBySeed per seed, its pairs that ended in an error (seeds without any left out)
   */
  public record Entry(String suite, String method, String label, ConfigurationResult configuration,
      List<CategoryCounts> bestSeedCategories, Map<Long, Integer> errorsBySeed) {

    public Entry {
      errorsBySeed = Map.copyOf(errorsBySeed);
    }

    /**
     * The seeds that fail BREC's rule only through errors: every pair of theirs that was judged
     * passed reliability. Rerunning the errors (resuming the experiment) may make them count.
     */
    public List<Long> seedsFailingOnlyThroughErrors() {
      return configuration.seeds().stream()
          .filter(r -> !r.passedReliability() && r.reliabilityFailures() == errorsBySeed.getOrDefault(r.seed(), 0))
          .map(SeedRun::seed).toList();
    }

    public long bestSeed() {
      return configuration.best().seed();
    }

    public int seeds() {
      return configuration.seeds().size();
    }

    /** BREC's verdict: true when no seed failed reliability. */
    public boolean counts() {
      return configuration.counts();
    }

    /** True when the suite is BREC (a BREC file with BREC's categories), so the paper's row applies. */
    public boolean brec() {
      return BrecPaperResults.isBrec(suite, bestSeedCategories.stream().map(CategoryCounts::category).toList());
    }

    /** The paper's row for the method (Table 2), when the suite is BREC and the paper ran it. */
    public Optional<BrecPaperResults.Row> paper() {
      return brec() ? BrecPaperResults.forMethod(method) : Optional.empty();
    }

    /** The best seed's counts summed over the categories of the paper's 140-pair "Regular"; empty without any. */
    public Optional<CategoryCounts> paperRegular() {
      return sum(c -> BrecPaperResults.PAPER_REGULAR.contains(c.category()), "Regular (paper grouping)");
    }

    /** The best seed's counts over every category. */
    public CategoryCounts total() {
      return sum(c -> true, "total").orElse(new CategoryCounts("total", 0, 0, 0, 0, 0));
    }

    private Optional<CategoryCounts> sum(java.util.function.Predicate<CategoryCounts> in, String name) {
      return bestSeedCategories.stream().filter(in).reduce((a, b) -> a.plus(b, name))
          .map(c -> new CategoryCounts(name, c.pairs(), c.distinguished(), c.reliable(), c.reliablyDistinguished(),
              c.errors()));
    }
  }

  private SeedLeaderboard() {}

  /**
   * One pair result as the leaderboard reads it, from a results topic or from {@code expresso eval}.
   *
   * @param judgement BREC's verdict on the pair; null when the pair could not be judged (an error)
   */
  public record Judged(String suite, String method, long seed, int index, String category, PairJudgement judgement) {

    /** A pair task's result: its pair, and its judgement unless it is an error. */
    static Judged of(Result r) {
      PairResult p = r.getPair();
      PairJudgement j = r.hasError() ? null : new PairJudgement(p.getT2Test(), p.getT2Reliability(), p.getThreshold(),
          p.getDistinguished(), p.getReliable());
      return new Judged(p.getSuiteId(), p.getMethod(), p.getSeed(), p.getPairIndex(), p.getCategory(), j);
    }

    boolean error() {
      return judgement == null;
    }

    /** For BREC's seed rule an error is an undecided pair: neither distinguished nor reliable. */
    PairJudgement orUndecided() {
      return error() ? new PairJudgement(Double.NaN, Double.NaN, Double.NaN, false, false) : judgement;
    }
  }

  /** The leaderboard of an experiment's results, configurations in first-seen order. */
  public static List<Entry> of(List<Result> results) {
    return ofJudged(results.stream().filter(Result::hasPair).map(Judged::of).toList());
  }

  /** The leaderboard of judged pairs, configurations in first-seen order. */
  public static List<Entry> ofJudged(List<Judged> pairs) {
    // (suite, method) -> seed -> that seed's pairs, each in arrival order
    Map<List<String>, Map<Long, List<Judged>>> bySuiteMethod = new LinkedHashMap<>();
    for (Judged p : pairs) {
      bySuiteMethod.computeIfAbsent(List.of(p.suite(), p.method()), k -> new TreeMap<>())
          .computeIfAbsent(p.seed(), k -> new ArrayList<>()).add(p);
    }
    Map<String, Long> suitesPerMethod = new LinkedHashMap<>();
    bySuiteMethod.keySet().forEach(k -> suitesPerMethod.merge(k.get(1), 1L, Long::sum));
    List<Entry> out = new ArrayList<>();
    bySuiteMethod.forEach((key, bySeed) -> {
      String suite = key.get(0);
      String method = key.get(1);
      String label = suitesPerMethod.get(method) > 1
          ? method + " @ " + (suite.isEmpty() ? "?" : SuiteSpecs.shortName(suite)) : method;
      List<SeedRun> runs = new ArrayList<>();
      Map<Long, Integer> errors = new TreeMap<>();
      bySeed.forEach((seed, ps) -> {
        runs.add(new SeedRun(seed, ps.stream().map(Judged::orUndecided).toList()));
        int e = (int) ps.stream().filter(Judged::error).count();
        if (e > 0) {
          errors.put(seed, e);
        }
      });
      ConfigurationResult cr = SeedSearch.aggregate(label, runs);
      List<String> order = categoryOrder(bySeed);
      out.add(new Entry(suite, method, label, cr, categories(bySeed.get(cr.best().seed()), order), errors));
    });
    return List.copyOf(out);
  }

  /** Categories in suite order (lowest pair index seen under any seed). */
  private static List<String> categoryOrder(Map<Long, List<Judged>> bySeed) {
    Map<String, Integer> first = new LinkedHashMap<>();
    bySeed.values().forEach(ps -> ps.forEach(p -> first.merge(p.category(), p.index(), Math::min)));
    return first.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.naturalOrder()))
        .map(Map.Entry::getKey).toList();
  }

  private static List<CategoryCounts> categories(List<Judged> seedPairs, List<String> order) {
    List<CategoryCounts> out = new ArrayList<>();
    for (String category : order) {
      int pairs = 0;
      int d = 0;
      int rel = 0;
      int rd = 0;
      int err = 0;
      for (Judged p : seedPairs) {
        if (!p.category().equals(category)) {
          continue;
        }
        pairs++;
        if (p.error()) {
          err++;
          continue;
        }
        PairJudgement j = p.judgement();
        d += j.distinguished() ? 1 : 0;
        rel += j.reliable() ? 1 : 0;
        rd += j.reliablyDistinguished() ? 1 : 0;
      }
      if (pairs > 0) {
        out.add(new CategoryCounts(category, pairs, d, rel, rd, err));
      }
    }
    return out;
  }
}
