package io.expresso.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.proto.v1.AttackResult;
import io.expresso.proto.v1.GraphOutcome;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TrainResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The summary of an experiment's de-duplicated results: per method and category, how many pairs
 * were distinguished (and reliably so) under the method's best seed by BREC's rule ({@link
 * SeedLeaderboard}; with one seed, simply that seed); synthetic tasks with their end-to-end
 * latency; errors by reason.
 */
public final class ResultSummary {

  /**
   * One (method, category) row; synthetic tasks form the row (synthetic, synthetic). A pair
   * method's row counts its best seed's pairs ({@link #leaderboard()} says which and how many seeds).
   */
  public record Row(String method, String category, int tasks, int distinguished, int reliable, int errors) {}

  /**
   * One trained model (a successful train result).
   *
   * @param testL1 mean absolute count error on the test split of {@code dataset}
   * @param testLc the same, normalised by the true count
   * @param correctTest test graphs whose rounded prediction is the true count
   * @param seconds the worker's compute time for the task (data, training, testing)
   * @param bestEpoch the epoch whose weights were kept (lowest validation ℓ1)
   * @param maxEpochs the job's epoch cap, 0 for its scale's
   * @param validationL1 the validation ℓ1 at the best epoch
   * @param trainSeconds the training time of the attempt that finished the job
   * @param resumedFromEpoch the saved epoch that attempt continued after (0: it trained from scratch)
   */
  public record TrainRow(String taskId, String checkpoint, String model, String pattern, String dataset, long seed,
      double testL1, double testLc, int epochs, int correctTest, double seconds, int bestEpoch, int maxEpochs,
      double validationL1, double trainSeconds, int resumedFromEpoch) {}

  /**
   * One attacked model in one space (a successful attack result).
   *
   * @param budgets flip budgets, increasing
   * @param fooled per budget: attacked graphs with an adversarial example within it
   * @param nr normalised AUC of the success rate over the budget fractions
   * @param nrTransfer the same for examples that transfer to every other model; NaN without any
   */
  public record AttackRow(String taskId, String checkpoint, String model, String pattern, String space, int beamWidth,
      double[] budgetFractions, int[] budgets, int[] fooled, int attacked, double nr, double nrTransfer,
      double seconds) {}

  /**
   * The result records that repeated a task id already read (results are produced at least once:
   * a task run twice writes two), as the reader counted them; each task is still counted once.
   *
   * @param records every record after a task's first
   * @param supersededErrors those that replaced the task's error result (a success, or a newer error)
   */
  public record DuplicateRecords(int records, int supersededErrors) {
    /** For a summary built from results alone, whose reader's counts are unknown. */
    public static final DuplicateRecords NONE = new DuplicateRecords(0, 0);

    /** Records that changed nothing: the task's kept result had succeeded. */
    public int ignored() {
      return records - supersededErrors;
    }
  }

  private final String experiment;
  private final DuplicateRecords duplicateRecords;
  private final List<Result> results;
  private final List<Row> rows;
  private final List<SeedLeaderboard.Entry> leaderboard;
  private final Map<String, Integer> errorsByReason;
  private final int duplicatesInReport;
  private final double[] latencySeconds;
  private final List<TrainRow> trainRows = new ArrayList<>();
  private final List<AttackRow> attackRows = new ArrayList<>();

  public ResultSummary(String experiment, List<Result> results) {
    this(experiment, results, DuplicateRecords.NONE);
  }

  /** @param duplicateRecords what the reader of {@code results} counted ({@code Aggregator#duplicateRecords}) */
  public ResultSummary(String experiment, List<Result> results, DuplicateRecords duplicateRecords) {
    this.experiment = experiment;
    this.duplicateRecords = duplicateRecords;
    this.results = List.copyOf(results);
    Set<String> ids = new HashSet<>();
    int dup = 0;
    for (Result r : results) {
      dup += ids.add(r.getTaskId()) ? 0 : 1;
    }
    this.duplicatesInReport = dup;
    Map<String, int[]> counts = new LinkedHashMap<>();
    Map<String, Integer> reasons = new TreeMap<>();
    List<Double> lat = new ArrayList<>();
    this.leaderboard = SeedLeaderboard.of(results);
    Map<List<String>, String> labels = new HashMap<>();
    leaderboard.forEach(e -> labels.put(List.of(e.suite(), e.method()), e.label()));
    List<String> methodOrder = new ArrayList<>();
    for (Result r : results) {
      String method;
      String category;
      if (r.hasPair()) {
        // pair results are counted per seed by the leaderboard; here only their method's place
        String label = labels.get(List.of(r.getPair().getSuiteId(), r.getPair().getMethod()));
        if (!methodOrder.contains(label)) {
          methodOrder.add(label);
        }
        if (r.hasError()) {
          reasons.merge(r.getError().getReason(), 1, Integer::sum);
        }
        continue;
      } else if (r.hasSynthetic() || r.getProvenance().getTaskKind().equals("synthetic")) {
        method = "synthetic";
        category = "synthetic";
      } else if (r.hasTrain() || r.hasAttack()) {
        method = r.getProvenance().getTaskKind();
        category = r.getProvenance().getTaskKind();
      } else {
        method = "?";
        category = r.getProvenance().getTaskKind().isEmpty() ? "undecodable" : r.getProvenance().getTaskKind();
      }
      int[] c = counts.computeIfAbsent(method + "\u0000" + category, k -> new int[] {0, 0, 0, 0});
      c[0]++;
      if (r.hasError()) {
        c[3]++;
        reasons.merge(r.getError().getReason(), 1, Integer::sum);
      }
      if (!r.hasError() && r.hasTrain()) {
        trainRows.add(trainRow(r));
      } else if (!r.hasError() && r.hasAttack()) {
        attackRows.add(attackRow(r));
      }
      if (r.hasSynthetic() && r.getProvenance().getFinishedAtMs() > 0) {
        lat.add((r.getProvenance().getFinishedAtMs() - r.getSynthetic().getPublishedAtMs()) / 1e3);
      }
    }
    // methods in first-seen order; within a pair method, categories in suite order (the leaderboard's)
    List<Row> sorted = new ArrayList<>();
    counts.forEach((k, c) -> {
      String m = k.split("\u0000", 2)[0];
      if (!methodOrder.contains(m)) {
        methodOrder.add(m);
      }
    });
    for (String m : methodOrder) {
      for (SeedLeaderboard.Entry e : leaderboard) {
        if (e.label().equals(m)) {
          for (SeedLeaderboard.CategoryCounts c : e.bestSeedCategories()) {
            sorted.add(new Row(m, c.category(), c.pairs(), c.distinguished(), c.reliable(), c.errors()));
          }
        }
      }
      counts.forEach((k, c) -> {
        String[] mc = k.split("\u0000", 2);
        if (mc[0].equals(m)) {
          sorted.add(new Row(mc[0], mc[1], c[0], c[1], c[2], c[3]));
        }
      });
    }
    this.rows = List.copyOf(sorted);
    this.errorsByReason = Map.copyOf(reasons);
    this.latencySeconds = lat.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  private static TrainRow trainRow(Result r) {
    TrainResult t = r.getTrain();
    return new TrainRow(r.getTaskId(), t.getCheckpointKey(), t.getModel(), t.getPattern(), t.getDataset(), t.getSeed(),
        t.getTestMae(), t.getTestLc(), t.getEpochs(), t.getCorrectTest(), r.getProvenance().getComputeSeconds(),
        t.getBestEpoch(), t.getJob().getMaxEpochs(), t.getValidationMae(), t.getSeconds(), t.getResumedFromEpoch());
  }

  private static AttackRow attackRow(Result r) {
    AttackResult a = r.getAttack();
    int[] budgets = a.getBudgetsList().stream().mapToInt(Integer::intValue).toArray();
    int[] fooled = new int[budgets.length];
    for (GraphOutcome g : a.getOutcomesList()) {
      for (int b = 0; b < budgets.length && b < g.getAdversarialCount(); b++) {
        fooled[b] += g.getAdversarial(b) ? 1 : 0;
      }
    }
    return new AttackRow(r.getTaskId(), a.getCheckpointKey(), a.getModel(), a.getPattern(), a.getSpace(),
        a.getBeamWidth(), a.getBudgetFractionsList().stream().mapToDouble(Double::doubleValue).toArray(), budgets,
        fooled, a.getAttacked(), a.getNr(), a.getNrTransfer(), r.getProvenance().getComputeSeconds());
  }

  /** Successful train results by checkpoint key. */
  public List<TrainRow> trainRows() {
    return trainRows.stream().sorted(Comparator.comparing(TrainRow::checkpoint).thenComparing(TrainRow::taskId))
        .toList();
  }

  /** Successful attack results by checkpoint key, then space in the paper's order (any, count, subgraph). */
  public List<AttackRow> attackRows() {
    List<String> spaces = List.of("any", "count", "subgraph");
    return attackRows.stream().sorted(Comparator.comparing(AttackRow::checkpoint)
        .thenComparing(a -> spaces.contains(a.space()) ? spaces.indexOf(a.space()) : spaces.size())
        .thenComparing(AttackRow::taskId)).toList();
  }

  public String experiment() {
    return experiment;
  }

  public List<Result> results() {
    return results;
  }

  public List<Row> rows() {
    return rows;
  }

  /** Every pair configuration (suite, method) with its seeds, best seed and BREC's verdict. */
  public List<SeedLeaderboard.Entry> leaderboard() {
    return leaderboard;
  }

  public int uniqueResults() {
    return results.size();
  }

  /** Task ids that occur more than once in the report: 0 by construction (the aggregator de-duplicates). */
  public int duplicatesInReport() {
    return duplicatesInReport;
  }

  /** The records that repeated a task id, as the reader counted them. */
  public DuplicateRecords duplicateRecords() {
    return duplicateRecords;
  }

  /**
   * One line on the records that repeated a task id: how many, and what each did. Every report
   * (table, Markdown, HTML) says it in these words.
   */
  public String duplicateRecordsLine() {
    DuplicateRecords d = duplicateRecords;
    return String.format(java.util.Locale.ROOT, "%d duplicate result records (a task id already read; each task"
        + " counted once: %d replaced an error result, %d ignored)", d.records(), d.supersededErrors(), d.ignored());
  }

  public int errors() {
    return errorsByReason.values().stream().mapToInt(Integer::intValue).sum();
  }

  public Map<String, Integer> errorsByReason() {
    return errorsByReason;
  }

  /** The q-quantile of publish-to-finish seconds of synthetic tasks, NaN if none. */
  public double syntheticLatency(double q) {
    if (latencySeconds.length == 0) {
      return Double.NaN;
    }
    int i = (int) Math.min(latencySeconds.length - 1, Math.max(0, Math.ceil(q * latencySeconds.length) - 1));
    return latencySeconds[i];
  }

  /**
   * Results by device kind and the arithmetic it ran at ({@code gpu fp32}, {@code cpu fp32, 2 threads}; {@code ?}
   * for results recorded before precision was), so that a report says whether TF32 was involved and
   * with how many intra-op threads a CPU summed its floats.
   */
  public Map<String, Integer> byPrecision() {
    Map<String, Integer> m = new TreeMap<>();
    for (Result r : results) {
      String device = r.getProvenance().getDevice();
      int colon = device.indexOf(':');
      String precision = r.getProvenance().getPrecision();
      int threads = r.getProvenance().getIntraOpThreads();
      m.merge((colon < 0 ? device : device.substring(0, colon)) + " " + (precision.isEmpty() ? "?" : precision)
          + (threads > 0 ? ", " + threads + (threads == 1 ? " thread" : " threads") : ""), 1, Integer::sum);
    }
    return m;
  }

  /** Workers that produced results, with their counts (work sharing). */
  public Map<String, Integer> byWorker() {
    Map<String, Integer> m = new TreeMap<>();
    for (Result r : results) {
      m.merge(r.getProvenance().getWorkerId() + " " + r.getProvenance().getDevice(), 1, Integer::sum);
    }
    return m;
  }

  /**
   * The JSON summary: experiment, unique_results, duplicates_in_report, errors, categories (the
   * issue's keys, exactly, for single-seed pair and synthetic experiments), {@code
   * duplicate_records} and {@code superseded_errors} ({@link #duplicateRecords}), then {@code train} and
   * {@code attack} arrays when the experiment has such results, and {@code leaderboard} when a
   * pair method ran under several seeds or on BREC ({@link #leaderboardJson}). Non-finite numbers
   * are null.
   */
  public String json() {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode();
    root.put("experiment", experiment);
    root.put("unique_results", uniqueResults());
    root.put("duplicates_in_report", duplicatesInReport);
    root.put("errors", errors());
    ArrayNode cats = root.putArray("categories");
    for (Row r : rows) {
      ObjectNode c = cats.addObject();
      c.put("name", r.category());
      c.put("method", r.method());
      c.put("tasks", r.tasks());
      c.put("distinguished", r.distinguished());
      c.put("reliable", r.reliable());
      c.put("errors", r.errors());
    }
    root.put("duplicate_records", duplicateRecords.records());
    root.put("superseded_errors", duplicateRecords.supersededErrors());
    if (!trainRows.isEmpty()) {
      ArrayNode train = root.putArray("train");
      for (TrainRow t : trainRows()) {
        ObjectNode n = train.addObject();
        n.put("task_id", t.taskId());
        n.put("checkpoint", t.checkpoint());
        n.put("model", t.model());
        n.put("pattern", t.pattern());
        n.put("dataset", t.dataset());
        n.put("seed", t.seed());
        number(n, "test_l1", t.testL1());
        number(n, "test_lc", t.testLc());
        n.put("epochs", t.epochs());
        n.put("correct_test", t.correctTest());
        number(n, "seconds", t.seconds());
        n.put("best_epoch", t.bestEpoch());
        n.put("max_epochs", t.maxEpochs()); // the job's cap, 0 = its scale's
        number(n, "validation_l1", t.validationL1());
        number(n, "train_seconds", t.trainSeconds()); // this attempt's: a resumed run's earlier ones not included
        n.put("resumed_from_epoch", t.resumedFromEpoch()); // 0: trained from scratch
      }
    }
    if (!attackRows.isEmpty()) {
      ArrayNode attack = root.putArray("attack");
      for (AttackRow a : attackRows()) {
        ObjectNode n = attack.addObject();
        n.put("task_id", a.taskId());
        n.put("checkpoint", a.checkpoint());
        n.put("model", a.model());
        n.put("pattern", a.pattern());
        n.put("space", a.space());
        n.put("beam_width", a.beamWidth());
        ArrayNode f = n.putArray("budget_fractions");
        Arrays.stream(a.budgetFractions()).forEach(f::add);
        ArrayNode b = n.putArray("budgets");
        Arrays.stream(a.budgets()).forEach(b::add);
        ArrayNode fooled = n.putArray("fooled");
        Arrays.stream(a.fooled()).forEach(fooled::add);
        n.put("attacked", a.attacked());
        number(n, "nr", a.nr());
        number(n, "nr_transfer", a.nrTransfer());
        number(n, "seconds", a.seconds());
      }
    }
    if (leaderboard.stream().anyMatch(e -> e.seeds() > 1 || e.brec())) {
      leaderboardJson(root.putArray("leaderboard"));
    }
    try {
      return mapper.writeValueAsString(root);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Per configuration: every seed's totals, the best seed, BREC's verdict, the best seed's counts
   * per category, and on BREC the paper's row and the 140-pair Regular of the paper's grouping.
   */
  private void leaderboardJson(ArrayNode out) {
    for (SeedLeaderboard.Entry e : leaderboard) {
      ObjectNode n = out.addObject();
      n.put("suite", e.suite());
      n.put("method", e.method());
      n.put("best_seed", e.bestSeed());
      n.put("counts", e.counts());
      ArrayNode failing = n.putArray("failing_seeds");
      e.configuration().failingSeeds().forEach(failing::add);
      ArrayNode seeds = n.putArray("seeds");
      for (io.expresso.stats.SeedRun r : e.configuration().seeds()) {
        seeds.addObject().put("seed", r.seed()).put("pairs", r.pairs().size()).put("distinguished", r.distinguished())
            .put("reliability_failures", r.reliabilityFailures()).put("real_correct", r.realCorrect());
      }
      ArrayNode cats = n.putArray("categories");
      List<SeedLeaderboard.CategoryCounts> all = new ArrayList<>(e.bestSeedCategories());
      e.paperRegular().filter(x -> e.brec()).ifPresent(all::add);
      all.add(e.total());
      for (SeedLeaderboard.CategoryCounts c : all) {
        ObjectNode o = cats.addObject().put("name", c.category()).put("pairs", c.pairs())
            .put("distinguished", c.distinguished()).put("reliable", c.reliable())
            .put("reliably_distinguished", c.reliablyDistinguished()).put("errors", c.errors());
        java.util.Optional<Integer> paper = e.paper().flatMap(p -> p.count(io.expresso.suite.BrecPaperResults.paperName(c.category())));
        if (paper.isPresent()) {
          o.put("paper", paper.get());
        } else {
          o.putNull("paper");
        }
      }
      e.paper().ifPresentOrElse(p -> n.putObject("paper").put("model", p.label()).put("basic", p.basic())
          .put("regular", p.regular()).put("extension", p.extension()).put("cfi", p.cfi()).put("total", p.total()),
          () -> n.putNull("paper"));
    }
  }

  /** JSON has no NaN or infinity: such a value is written as null. */
  private static void number(ObjectNode n, String key, double v) {
    if (Double.isFinite(v)) {
      n.put(key, v);
    } else {
      n.putNull(key);
    }
  }

  /** Rows grouped by method, in first-seen order. */
  public Map<String, List<Row>> rowsByMethod() {
    Map<String, List<Row>> m = new LinkedHashMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.method(), k -> new ArrayList<>()).add(r);
    }
    return m;
  }
}
