package io.expresso.cli;

import ai.djl.Device;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.engine.Devices;
import io.expresso.engine.EngineState;
import io.expresso.engine.NativeEngine;
import io.expresso.engine.ThreadPolicy;
import io.expresso.engine.GpuPrecision;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.engine.MemoryBudget;
import io.expresso.engine.MemorySource;
import io.expresso.model.NetworkSpec;
import io.expresso.model.TorchScriptSpec;
import io.expresso.report.EvalResults;
import io.expresso.report.ResultTables;
import io.expresso.report.SeedLeaderboard;
import io.expresso.report.Table;
import io.expresso.stats.PairJudgement;
import io.expresso.stats.SeedRun;
import io.expresso.stats.ThresholdRule;
import io.expresso.suite.Category;
import io.expresso.suite.GraphPair;
import io.expresso.suite.Suite;
import io.expresso.suite.SuiteSpecs;
import io.expresso.train.EvaluationSettings;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluationException;
import io.expresso.train.PairEvaluator;
import io.expresso.train.PlateauSchedule;
import io.expresso.train.TrainingSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso eval}: train a fresh GNN per pair of a suite (BREC's siamese protocol) and judge
 * it with RPC or RAPC; a table for people or the JSON of issue 4 for machines, progress on stderr.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Evaluate a GNN on an expressiveness suite: train a fresh siamese model per pair and"
        + " count the pairs it reliably distinguishes (BREC's RPC/RAPC).")
final class EvalCommand implements Callable<Integer> {

  /** More pairs at once than this is a typo, not a machine. */
  private static final int MAX_PAIRS_AT_ONCE = 1024;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--model", required = true, paramLabel = "MODEL",
      description = "a built-in model (expresso models lists them), optionally with settings:"
          + " ppgn:layers=5,hidden=32,d=16; or your own TorchScript module: torchscript:FILE.pt[,input=sparse|dense]"
          + "[,features=ones|degree|spd|count-P joined by +][,init=auto|reset|saved] (docs/gnn-evaluation.md, Your own model)")
  String model;

  @CommandLine.Mixin SuiteOptions suiteOptions = new SuiteOptions();

  @Option(names = "--seed", paramLabel = "S", description = "seed for initialisation and drawn relabelings (default 0)")
  Long seed;

  @Option(names = "--seeds", paramLabel = "A-B",
      description = "run every seed in A..B; the configuration counts only if no seed fails reliability; the best seed is reported")
  String seeds;

  @CommandLine.Mixin ThresholdOption thresholdOption = new ThresholdOption();
  @CommandLine.Mixin ConventionOption conventionOption = new ConventionOption();

  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();

  @Option(names = "--device", paramLabel = "cpu|gpu:N", defaultValue = "cpu", description = "device to train on (default cpu)")
  String device;

  @Option(names = "--epochs", paramLabel = "N", description = "maximum epochs (BREC: 20; DE+NGNN 30)")
  Integer epochs;

  @Option(names = "--lr", paramLabel = "RATE", description = "Adam learning rate (default 1e-4)")
  Float learningRate;

  @Option(names = "--weight-decay", paramLabel = "W", description = "Adam weight decay (default 1e-4)")
  Float weightDecay;

  @Option(names = "--batch-size", paramLabel = "N", description = "graphs per step, even (default 32)")
  Integer batchSize;

  @Option(names = "--loss-threshold", paramLabel = "L", description = "early stop below this epoch loss (PPGN/GIN 0.2, DE+NGNN 0.01)")
  Double lossThreshold;

  @CommandLine.Mixin ScheduleOption scheduleOption = new ScheduleOption();

  @Option(names = "--q", paramLabel = "Q", description = "relabelings per graph (default 32; BREC files ship 32)")
  Integer q;

  @Option(names = "--json", description = "print one JSON object instead of a table")
  boolean json;

  @Option(names = "--memory-budget", paramLabel = "SIZE", description = "activation memory per forward/backward pass,"
      + " e.g. 4g or 512m, for each pair; larger batches are split into micro-batches with the same result (default:"
      + " a pool of half of the GPU's memory, or on the CPU of half of the machine's, from which each pair takes what"
      + " it needs to run as alone)")
  String memoryBudget;

  @Option(names = "--pairs-at-once", paramLabel = "N", description = "pairs judged side by side, each on its own"
      + " thread with the engine's intra-op threads; the results do not depend on N (default on the CPU: one per two"
      + " cores, each on two intra-op threads; 1 on a GPU)")
  Integer pairsAtOnce;

  @Option(names = "--results", paramLabel = "FILE", description = "JSONL file each pair's result is appended to as soon"
      + " as it is judged (default: expresso-out/eval/<suite>-<model>-<hash of the configuration>.jsonl)")
  Path resultsFile;

  @Option(names = "--resume", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "skip the pairs and seeds the results file already holds for this configuration (default);"
          + " --no-resume starts the file over")
  boolean resume;

  @Override
  public Integer call() throws Exception {
    precision.apply(spec);
    EngineState engine;
    NetworkSpec modelSpec;
    Device dev;
    EvaluationSettings settings;
    long[] seedList;
    int atOnce;
    MemoryBudget budget;
    try {
      // the engine's one-off start (native libraries, about 0.7 s) is the process's, not the first pair's
      engine = NativeEngine.start();
      modelSpec = NetworkSpec.parse(model, TorchScriptSpec.files());
      dev = Devices.parse(device);
      TrainingSettings t = TrainingSettings.defaults(modelSpec);
      t = epochs == null ? t : t.withEpochs(epochs);
      t = learningRate == null ? t : t.withLearningRate(learningRate);
      t = weightDecay == null ? t : t.withWeightDecay(weightDecay);
      t = batchSize == null ? t : t.withBatchSize(batchSize);
      t = lossThreshold == null ? t : t.withLossThreshold(lossThreshold);
      PlateauSchedule.Settings schedule = scheduleOption.settings(spec);
      t = schedule == null ? t : t.withSchedule(schedule);
      t = q == null ? t : t.withQ(q);
      EvaluationSettings defaults = EvaluationSettings.defaults(modelSpec).withTraining(t)
          .withConvention(conventionOption.convention(spec));
      // without --threshold, the model's BREC script's (DropGNN's given 5, RPC for the others)
      ThresholdRule threshold = thresholdOption.rule(spec, EvaluationSettings.ALPHA);
      settings = threshold == null ? defaults : defaults.withThreshold(threshold);
      settings.threshold().check(t.q(), embeddingWidth(modelSpec, dev));
      if (seed != null && seeds != null) {
        throw new IllegalArgumentException("give --seed or --seeds, not both");
      }
      seedList = seedList();
      atOnce = pairsAtOnce != null ? pairsAtOnce : dev.isGpu() ? 1 : ThreadPolicy.evaluationsPerMachine(engine.intraOpThreads());
      if (atOnce < 1 || atOnce > MAX_PAIRS_AT_ONCE) {
        throw new IllegalArgumentException("--pairs-at-once must be 1 to " + MAX_PAIRS_AT_ONCE + ", got " + atOnce);
      }
      budget = memoryBudget == null ? null : MemoryBudget.parse(memoryBudget);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Suite suite = suiteOptions.load(spec);
    // Loading leaves ~100 MB of graphs in the young generation: one collection now, before any pair
    // is timed, rather than a 50-90 ms evacuation pause inside one of the first pairs (BREC, G1).
    System.gc();

    PrintWriter err = spec.commandLine().getErr();
    if (!dev.isGpu()) {
      io.expresso.engine.LauncherSettings.missingForCpuEvaluation().ifPresent(n -> err.println("expresso: note: " + n));
    }
    ObjectNode config = configuration(modelSpec, settings);
    if (dev.isGpu()) { // CPU devices are always fp32: CPU results files keep their configuration
      config.put("precision", GpuPrecision.of(dev).label());
    } else if (engine.intraOpThreads() != 1) { // the order of float sums follows the thread count
      // (one thread, the default before 2026-11-27, keeps the results files of then)
      config.put("threads", engine.intraOpThreads());
    }
    Path file = resultsFile != null ? resultsFile : EvalResults.defaultFile(Path.of("expresso-out", "eval"),
        SuiteSpecs.shortName(suiteOptions.suiteSpec), modelSpec.family(), config);
    long start = System.nanoTime();
    int running = atOnce;
    int[] counts = new int[3]; // judged here, resumed, errors
    PairEvaluation[][] judgedPairs = new PairEvaluation[seedList.length][suite.size()];
    String[][] errorAt = new String[seedList.length][suite.size()];
    try (EvalResults results = openResults(file, config)) {
      err.println("results stream to " + results.file() + (results.resumed() > 0
          ? " (" + results.resumed() + " pair results already there are kept; --no-resume starts over)" : ""));
      try (ProgressBar progress = ProgressBars.start("eval", (long) suite.size() * seedList.length, err)) {
        List<PairsAtOnce.Job> jobs = new ArrayList<>();
        for (int run = 0; run < seedList.length; run++) {
          int position = 0;
          for (Category c : suite.categories()) {
            for (GraphPair p : c.pairs()) {
              PairEvaluation e = results.judged(seedList[run], p.index());
              if (e != null) {
                judgedPairs[run][position] = e;
                counts[1]++;
                ProgressBars.step(progress, "pair " + p.index() + " (resumed)");
              } else {
                jobs.add(new PairsAtOnce.Job(run, position, seedList[run], p));
              }
              position++;
            }
          }
        }
        // fewer pairs to judge than threads (one pair, a resumed run's last ones): fewer run at once
        running = Math.max(1, Math.min(atOnce, jobs.size()));
        // By default the pairs at once lease what each needs from the pool of the device's default
        // budget (every pair runs the passes it runs alone: the same bits), as a worker's devices do;
        // a user's --memory-budget is every pair's own.
        MemorySource memory = MemorySource.forDevice(dev, budget);
        // the cores the pairs at once leave idle run their embedding passes (the same bits)
        int inferenceThreads = dev.isGpu() ? 1 : Math.max(1, ThreadPolicy.evaluationsPerMachine(engine.intraOpThreads()) / running);
        PairsAtOnce.run(jobs, running,
            (job, stop) -> PairEvaluator.evaluate(job.pair(), modelSpec, settings, job.seed(), dev, memory,
                inferenceThreads, stop),
            (job, e, error) -> {
              GraphPair p = job.pair();
              if (error != null) {
                errorAt[job.run()][job.position()] = "seed " + job.seed() + ": " + error.getMessage();
                counts[2]++;
                ProgressBars.step(progress, "pair " + p.index() + " error");
                return;
              }
              results.append(e);
              judgedPairs[job.run()][job.position()] = e;
              counts[0]++;
              ProgressBars.step(progress, "pair " + p.index() + " " + p.category() + (e.distinguished() ? " distinguished" : ""));
            });
        progress.setExtraMessage(counts[0] + " judged, " + counts[1] + " resumed, " + counts[2] + " errors");
      }
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    List<List<PairEvaluation>> runs = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (int run = 0; run < seedList.length; run++) {
      runs.add(Arrays.asList(judgedPairs[run]));
      for (String e : errorAt[run]) {
        if (e != null) {
          errors.add(e);
        }
      }
    }

    SeedLeaderboard.Entry board = leaderboard(modelSpec, suite, seedList, runs);
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? json(modelSpec, settings, suite, runs, board, elapsed, dev, running)
        : table(modelSpec, settings, runs, board, elapsed, dev, running, counts[0]));
    out.flush();
    for (String e : errors) {
      err.println("expresso: error: " + e);
    }
    return errors.isEmpty() ? 0 : 1;
  }

  /**
   * The embedding width d: the spec's, or a TorchScript module's as it shows when loaded once
   * here, so that a module that does not fit is refused before any pair runs.
   */
  private static int embeddingWidth(NetworkSpec m, Device dev) {
    if (m instanceof io.expresso.model.ModelSpec builtIn) {
      return builtIn.embedding();
    }
    try (GraphModel probe = GraphModel.create(m, Head.EMBEDDING, dev, 0L)) {
      System.err.println("initial weights per pair: " + probe.initialisation());
      return probe.embeddingWidth();
    }
  }

  private EvalResults openResults(Path file, ObjectNode config) {
    try {
      return EvalResults.open(file, config, resume);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(file + ": " + e.getMessage(), e);
    }
  }

  /** Everything that decides a pair's result besides the pair and the seed (the results file's first line). */
  private ObjectNode configuration(NetworkSpec m, EvaluationSettings s) {
    ObjectNode c = new ObjectMapper().createObjectNode();
    TrainingSettings t = s.training();
    c.put("suite", suiteOptions.suiteSpec).put("model", m.toText()).put("threshold", s.threshold().id())
        .put("convention", s.convention().id()).put("alpha", s.alpha()).put("rapc_groups", s.rapcGroups())
        .put("q", t.q()).put("epochs", t.epochs()).put("batch_size", t.batchSize())
        .put("learning_rate", t.learningRate()).put("weight_decay", t.weightDecay())
        .put("loss_threshold", t.lossThreshold()).put("schedule", t.schedule().text());
    return c;
  }

  private long[] seedList() {
    if (seeds == null) {
      return new long[] {seed == null ? 0L : seed};
    }
    int[] r = Ranges.option(spec, "--seeds", seeds);
    long[] out = new long[r[1] - r[0] + 1];
    for (int i = 0; i < out.length; i++) {
      out[i] = r[0] + i;
    }
    return out;
  }


  /**
   * The run as BREC's leaderboard judges it (report/SeedLeaderboard, as {@code expresso results}):
   * the best seed, the verdict over the seeds, the best seed's counts per category. A pair that
   * could not be judged counts as an error: neither distinguished nor reliable.
   */
  private static SeedLeaderboard.Entry leaderboard(NetworkSpec m, Suite suite, long[] seedList,
      List<List<PairEvaluation>> runs) {
    List<SeedLeaderboard.Judged> judged = new ArrayList<>();
    for (int run = 0; run < seedList.length; run++) {
      int i = 0;
      for (Category c : suite.categories()) {
        for (GraphPair p : c.pairs()) {
          PairEvaluation e = runs.get(run).get(i++);
          judged.add(new SeedLeaderboard.Judged(suite.id(), m.toText(), seedList[run], p.index(), c.name(),
              e == null ? null : e.judgement()));
        }
      }
    }
    return SeedLeaderboard.ofJudged(judged).get(0); // one suite, one model: one configuration
  }

  /** The best seed's run: one evaluation per pair in suite order, null where it could not be judged. */
  private static List<PairEvaluation> bestRun(List<List<PairEvaluation>> runs, SeedLeaderboard.Entry board) {
    List<SeedRun> seeds = board.configuration().seeds();
    for (int i = 0; i < seeds.size(); i++) {
      if (seeds.get(i).seed() == board.bestSeed()) {
        return runs.get(i);
      }
    }
    throw new IllegalStateException("best seed " + board.bestSeed() + " is not one of the run's seeds");
  }

  private static String table(NetworkSpec m, EvaluationSettings s, List<List<PairEvaluation>> runs,
      SeedLeaderboard.Entry board, double elapsed, Device dev, int atOnce, int judgedHere) {
    StringBuilder sb = new StringBuilder();
    sb.append("model ").append(m.toText()).append(", threshold ").append(s.threshold().id())
        .append(", convention ").append(s.convention().id()).append(", schedule ").append(s.training().schedule().text())
        .append(", seed ").append(board.bestSeed())
        .append(", device ").append(Devices.name(dev)).append(" (").append(GpuPrecision.of(dev).label())
        .append(dev.isGpu() ? "" : ", " + NativeEngine.start().intraOpThreads() + " threads").append(")\n");
    sb.append(categoryTables(board));
    sb.append(ResultTables.leaderboard(board)); // BREC's verdict on the seeds and, on BREC, Table 2 beside ours
    PairTimes times = PairTimes.of(runs);
    String peak = times.peakRssBytes() < 0 ? "unknown"
        : String.format(Locale.ROOT, "%.2f GiB", times.peakRssBytes() / (double) (1L << 30));
    // with pairs side by side, a pair's own seconds and the wall time per pair part ways
    String wall = judgedHere == 0 ? ""
        : String.format(Locale.ROOT, ", %.3f s of it per pair judged here", elapsed / judgedHere);
    sb.append(String.format(Locale.ROOT, "elapsed %.1f s in this run, %d pair%s at once%s; %.3f s per judged pair on its own"
        + " clock (%d pairs, resumed ones included); peak resident memory %s%n", elapsed, atOnce, atOnce == 1 ? "" : "s",
        wall, times.secondsPerPair(), times.pairs(), peak));
    return sb.toString();
  }

  /**
   * The best seed's counts per category and, over several seeds, each seed's totals. Reliability failures
   * are the pairs judged unreliable; a pair that ended in an error was not judged and is counted apart
   * (BREC's seed rule counts both against a seed, as the verdict line under the table says).
   */
  static String categoryTables(SeedLeaderboard.Entry board) {
    StringBuilder sb = new StringBuilder();
    Table t = new Table("category", "pairs", "distinguished", "reliability failures", "errors", "reliably distinguished");
    for (SeedLeaderboard.CategoryCounts c : board.bestSeedCategories()) {
      t.row(c.category(), str(c.pairs()), str(c.distinguished()), str(c.judgedReliabilityFailures()), str(c.errors()),
          str(c.reliablyDistinguished()));
    }
    SeedLeaderboard.CategoryCounts total = board.total();
    t.separator().row("total", str(total.pairs()), str(total.distinguished()), str(total.judgedReliabilityFailures()),
        str(total.errors()), str(total.reliablyDistinguished()));
    sb.append(t.render());
    if (board.seeds() > 1) {
      Table st = new Table("seed", "distinguished", "reliability failures", "errors");
      for (SeedRun r : board.configuration().seeds()) {
        int errors = board.errorsBySeed().getOrDefault(r.seed(), 0);
        st.row(String.valueOf(r.seed()), str(r.distinguished()), str(r.reliabilityFailures() - errors), str(errors));
      }
      sb.append(st.render());
    }
    return sb.toString();
  }

  /** Per-pair seconds and the highest peak resident memory over every judged pair of every seed. */
  record PairTimes(int pairs, double secondsPerPair, long peakRssBytes) {
    static PairTimes of(List<List<PairEvaluation>> runs) {
      int n = 0;
      double seconds = 0;
      long peak = -1;
      for (List<PairEvaluation> run : runs) {
        for (PairEvaluation e : run) {
          if (e != null) {
            n++;
            seconds += e.seconds();
            peak = Math.max(peak, e.memory().peakRssBytes());
          }
        }
      }
      return new PairTimes(n, seconds / Math.max(1, n), peak);
    }
  }

  private static String str(int v) {
    return String.valueOf(v);
  }

  private String json(NetworkSpec m, EvaluationSettings s, Suite suite, List<List<PairEvaluation>> runs,
      SeedLeaderboard.Entry board, double elapsed, Device dev, int atOnce) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root = mapper.createObjectNode();
    root.put("model", m.family());
    root.put("device", Devices.name(dev)).put("precision", GpuPrecision.of(dev).label());
    if (!dev.isGpu()) {
      root.put("threads", NativeEngine.start().intraOpThreads());
    }
    root.put("pairs_at_once", atOnce);
    root.put("suite", suiteOptions.suiteSpec);
    root.put("seed", board.bestSeed());
    root.put("convention", s.convention().id());
    root.put("schedule", s.training().schedule().text());
    List<PairEvaluation> run = bestRun(runs, board);
    ArrayNode categories = root.putArray("categories");
    for (SeedLeaderboard.CategoryCounts c : board.bestSeedCategories()) {
      categories.addObject().put("name", c.category()).put("pairs", c.pairs()).put("distinguished", c.distinguished())
          .put("reliability_failures", c.judgedReliabilityFailures()).put("errors", c.errors());
    }
    SeedLeaderboard.CategoryCounts total = board.total();
    root.putObject("total").put("pairs", total.pairs()).put("distinguished", total.distinguished())
        .put("reliability_failures", total.judgedReliabilityFailures()).put("errors", total.errors());
    root.put("elapsed_seconds", elapsed);
    PairTimes times = PairTimes.of(runs);
    root.put("seconds_per_pair", times.secondsPerPair()).put("peak_rss_bytes", times.peakRssBytes());
    ArrayNode ps = root.putArray("pairs");
    int i = 0;
    for (Category c : suite.categories()) {
      for (GraphPair p : c.pairs()) {
        PairEvaluation e = run.get(i++);
        ObjectNode o = ps.addObject().put("index", p.index()).put("category", c.name());
        if (e == null) {
          // a pair that could not be judged (non-finite embeddings): no statistics, not reliable
          o.putNull("t2_test").putNull("t2_reliability").put("distinguished", false).put("reliable", false)
              .putNull("epochs").putNull("final_loss").putNull("seconds");
          continue;
        }
        PairJudgement j = e.judgement();
        o.put("t2_test", EvalResults.finite(j.t2Test())).put("t2_reliability", EvalResults.finite(j.t2Reliability()))
            .put("distinguished", j.distinguished()).put("reliable", j.reliable())
            .put("epochs", e.training().epochs()).put("final_loss", EvalResults.finite(e.training().finalLoss()))
            .put("seconds", e.seconds()).put("peak_rss_bytes", e.memory().peakRssBytes())
            .put("training_graphs_per_pass", e.memory().trainingGraphsPerPass());
      }
    }
    if (board.seeds() > 1) {
      // multi-seed runs only: every seed's totals and BREC's verdict on the configuration
      ArrayNode all = root.putArray("seeds");
      for (SeedRun r : board.configuration().seeds()) {
        int errors = board.errorsBySeed().getOrDefault(r.seed(), 0);
        all.addObject().put("seed", r.seed()).put("distinguished", r.distinguished())
            .put("reliability_failures", r.reliabilityFailures() - errors).put("errors", errors);
      }
      root.put("configuration_counts", board.counts());
    }
    return mapper.writeValueAsString(root) + System.lineSeparator();
  }
}
