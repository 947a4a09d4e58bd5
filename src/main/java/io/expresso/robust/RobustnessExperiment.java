package io.expresso.robust;

import io.expresso.attack.PerturbationSpace;
import io.expresso.count.Pattern;
import io.expresso.model.RegressorSpec;
import io.expresso.stats.MeanStd;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The study as phases of jobs (Campi et al. §6): (1) train every model × pattern × seed on the
 * attack dataset, and for the out-of-distribution rows on ER(0.3) (d1) and ER(0.8) (d2);
 * (2) retrain only the final MLP of the d1 models on d2, and attack every attack-dataset model in
 * P, P^c and P^s with transfer to the same model × pattern's other seeds; (3) the report.
 *
 * @param models model options as given: a bare architecture (its counting recipe per pattern, within
 *     the scale's caps) or a full spec; {@link #spec} resolves one for a pattern
 * @param sizes the scale's data size, seeds and epoch cap, as overridden on the command line
 * @param grid the hyper-parameter grid searched before the study ({@code --search}: the scale's;
 *     {@code --grid}: the user's), or null for none
 */
public record RobustnessExperiment(String experimentId, Scale scale, List<String> models,
    List<Pattern> patterns, boolean ood, Sizes sizes, SearchGrid grid, Map<String, SearchGrid.Point> chosen) {

  /**
   * One grid point of a model × pattern in the search: its validation ℓ1 (best epoch) over seeds.
   *
   * @param model the model option as given
   * @param selected the point with the lowest mean, whose models the study attacks
   */
  public record SearchRow(String model, Pattern pattern, SearchGrid.Point point, MeanStd validationL1,
      boolean selected) {}

  /** An experiment without the hyper-parameter search. */
  public RobustnessExperiment(String experimentId, Scale scale, List<String> models, List<Pattern> patterns,
      boolean ood, Sizes sizes) {
    this(experimentId, scale, models, patterns, ood, sizes, null, Map.of());
  }

  /**
   * Overrides of a scale's size ({@code --graphs}, {@code --seeds}, {@code --max-epochs}) and of
   * its recipes' initial learning rate and batch size ({@code --learning-rate}, {@code --batch-size});
   * 0 keeps the scale's or recipe's value. They travel in every job, so workers generate and train alike.
   */
  public record Sizes(int graphs, int seeds, int maxEpochs, float learningRate, int batchSize) {
    public static final Sizes SCALE = new Sizes(0, 0, 0);

    public Sizes {
      if (graphs < 0 || seeds < 0 || maxEpochs < 0 || batchSize < 0) {
        throw new IllegalArgumentException("--graphs, --seeds, --max-epochs and --batch-size must be positive, got "
            + graphs + ", " + seeds + ", " + maxEpochs + ", " + batchSize);
      }
      if (!(learningRate >= 0 && learningRate < 1)) {
        throw new IllegalArgumentException("--learning-rate must be in (0, 1), got " + learningRate);
      }
      if (graphs > 0 && graphs < 10) {
        throw new IllegalArgumentException("--graphs must be at least 10 (the 30/20/50 split), got " + graphs);
      }
    }

    /** Sizes with every recipe's own rate and batch. */
    public Sizes(int graphs, int seeds, int maxEpochs) {
      this(graphs, seeds, maxEpochs, 0f, 0);
    }

    /** Whether the rate or the batch size is the command line's rather than the recipes'. */
    public boolean overridesTraining() {
      return learningRate > 0 || batchSize > 0;
    }

    /** The model-id suffix naming the overridden rate and batch (none without overrides). */
    String suffix() {
      String lr = learningRate > 0 ? "lr-" + learningRate : "";
      String b = batchSize > 0 ? "batch-" + batchSize : "";
      return overridesTraining() ? "/" + lr + (lr.isEmpty() || b.isEmpty() ? "" : "-") + b : "";
    }
  }

  /** An experiment at its scale's sizes. */
  public RobustnessExperiment(String experimentId, Scale scale, List<String> models, List<Pattern> patterns,
      boolean ood) {
    this(experimentId, scale, models, patterns, ood, Sizes.SCALE);
  }

  /** Seeds per model × pattern. */
  public int seeds() {
    return sizes.seeds() > 0 ? sizes.seeds() : scale.seeds();
  }

  /** Graphs per dataset. */
  public int datasetSize() {
    return sizes.graphs() > 0 ? sizes.graphs() : scale.datasetSize();
  }

  /** The most training epochs. */
  public int maxEpochs() {
    return sizes.maxEpochs() > 0 ? sizes.maxEpochs() : scale.epochs();
  }

  private TrainJob trainJob(String id, String model, Pattern p, String dataset, int seed, String headOf,
      List<String> testOn) {
    SearchGrid.Point point = chosen.get(key(model, p));
    return new TrainJob(id, spec(model, p), p, dataset, scale, seed, headOf, testOn, sizes.graphs(), sizes.maxEpochs(),
        point == null ? sizes.learningRate() : point.learningRate(), point == null ? sizes.batchSize() : point.batchSize());
  }

  public static final List<PerturbationSpace> SPACES = List.of(PerturbationSpace.ANY,
      PerturbationSpace.COUNT_PRESERVING, PerturbationSpace.SUBGRAPH_PRESERVING);
  public static final String D1 = "er-0.3";
  public static final String D2 = "er-0.8";

  public RobustnessExperiment {
    models = models.stream().map(String::trim).toList();
    patterns = List.copyOf(patterns);
    if (models.isEmpty() || patterns.isEmpty()) {
      throw new IllegalArgumentException("at least one model and one pattern are needed");
    }
    for (String m : models) {
      for (Pattern p : patterns) {
        StudyJobs.resolveSpec(m, p, scale); // a bad model fails here, naming it
      }
    }
    if (models.stream().map(m -> StudyJobs.resolveSpec(m, Pattern.TRIANGLE, scale)).distinct().count() < models.size()) {
      throw new IllegalArgumentException("the same model is given twice in " + models);
    }
    if (sizes == null) {
      sizes = Sizes.SCALE;
    }
    if (grid != null && sizes.overridesTraining()) {
      throw new IllegalArgumentException("--search chooses the learning rate and batch size; give it or"
          + " --learning-rate/--batch-size, not both");
    }
    chosen = Map.copyOf(chosen);
    if (scale.seeds() < 1) {
      throw new IllegalArgumentException("scale " + scale.cliName() + " has no seeds");
    }
  }

  static String architecture(String spec) {
    return RegressorSpec.parse(spec).architecture();
  }

  /** The full spec of model option {@code model} for pattern {@code p}: the search's choice, else the recipe's at this scale. */
  public String spec(String model, Pattern p) {
    SearchGrid.Point point = chosen.get(key(model, p));
    return point != null ? point.spec() : StudyJobs.resolveSpec(model, p, scale);
  }

  private static String key(String model, Pattern p) {
    return model + '\u0000' + p.cliName();
  }

  /**
   * A model's id; a searched point's carries its rate and batch, as does one trained with the
   * command line's, since the spec does not.
   */
  private String modelId(String spec, Pattern p, String dataset, int seed, SearchGrid.Point point) {
    return StudyJobs.modelId(experimentId, spec, p, dataset, seed) + (point == null ? sizes.suffix() : "/" + point.suffix());
  }

  String modelId(String model, Pattern p, String dataset, int seed) {
    return modelId(spec(model, p), p, dataset, seed, chosen.get(key(model, p)));
  }

  String headId(String model, Pattern p, int seed) {
    return modelId(model, p, D1, seed) + "/head-" + D2;
  }

  /** Whether a hyper-parameter search ({@link #grid}) runs before the study. */
  public boolean search() {
    return grid != null;
  }

  /** Phase 0 of {@code --search}: every grid point × seed of every model × pattern, on the attack dataset. */
  public List<TrainJob> searchJobs() {
    List<TrainJob> jobs = new ArrayList<>();
    for (String model : models) {
      for (Pattern p : patterns) {
        for (SearchGrid.Point point : grid().points(StudyJobs.resolveSpec(model, p, scale))) {
          for (int s = 0; s < seeds(); s++) {
            // tested as trainJobs() tests the attack-dataset model, so the selected point's jobs are reused
            jobs.add(new TrainJob(modelId(point.spec(), p, scale.attackDataset(), s, point), point.spec(),
                p, scale.attackDataset(), scale, s, null, attackTestOn(), sizes.graphs(),
                sizes.maxEpochs(), point.learningRate(), point.batchSize()));
          }
        }
      }
    }
    return jobs;
  }

  /** The search's table: each point's mean validation ℓ1 over seeds, the lowest per model × pattern selected. */
  public List<SearchRow> searchRows(List<TrainOutcome> searched) {
    List<SearchRow> rows = new ArrayList<>();
    for (String model : models) {
      for (Pattern p : patterns) {
        List<SearchGrid.Point> points = grid().points(StudyJobs.resolveSpec(model, p, scale));
        List<MeanStd> means = new ArrayList<>();
        int best = -1;
        for (SearchGrid.Point point : points) {
          double[] v = searched.stream().filter(o -> o.job().pattern() == p && o.job().spec().equals(point.spec())
              && o.job().learningRate() == point.learningRate() && o.job().batchSize() == point.batchSize())
              .mapToDouble(TrainOutcome::bestValidationL1).toArray();
          MeanStd m = MeanStd.ofMeasured(v);
          means.add(m);
          if (v.length > 0 && (best < 0 || m.mean() < means.get(best).mean())) {
            best = means.size() - 1;
          }
        }
        for (int i = 0; i < points.size(); i++) {
          rows.add(new SearchRow(model, p, points.get(i), means.get(i), i == best));
        }
      }
    }
    return rows;
  }

  /** This experiment with the selected points of {@code rows} as its models. */
  public RobustnessExperiment withChoices(List<SearchRow> rows) {
    Map<String, SearchGrid.Point> picked = new LinkedHashMap<>();
    for (SearchRow r : rows) {
      if (r.selected()) {
        picked.put(key(r.model(), r.pattern()), r.point());
      }
    }
    return new RobustnessExperiment(experimentId, scale, models, patterns, ood, sizes, grid, picked);
  }

  private boolean attackOnD1() {
    return scale.attackDataset().equals(D1);
  }

  /** The datasets an attack-dataset model is tested on (and d2 when it is also the OOD study's d1 model). */
  private List<String> attackTestOn() {
    List<String> testOn = new ArrayList<>(List.of(scale.attackDataset()));
    if (ood && attackOnD1()) {
      testOn.add(D2);
    }
    return testOn;
  }

  /** Phase 1: every model trained from scratch. */
  public List<TrainJob> trainJobs() {
    List<TrainJob> jobs = new ArrayList<>();
    for (String model : models) {
      for (Pattern p : patterns) {
        String spec = spec(model, p);
        for (int s = 0; s < seeds(); s++) {
          List<String> testOn = attackTestOn();
          jobs.add(trainJob(modelId(model, p, scale.attackDataset(), s), model, p, scale.attackDataset(), s, null,
              testOn));
          if (ood) {
            if (!attackOnD1()) {
              jobs.add(trainJob(modelId(model, p, D1, s), model, p, D1, s, null, List.of(D1, D2)));
            }
            jobs.add(trainJob(modelId(model, p, D2, s), model, p, D2, s, null, List.of(D2)));
          }
        }
      }
    }
    return jobs;
  }

  /** Phase 2a: the final MLP of every d1 model retrained on d2. */
  public List<TrainJob> headJobs() {
    List<TrainJob> jobs = new ArrayList<>();
    if (!ood) {
      return jobs;
    }
    for (String model : models) {
      for (Pattern p : patterns) {
        String spec = spec(model, p);
        for (int s = 0; s < seeds(); s++) {
          jobs.add(trainJob(headId(model, p, s), model, p, D2, s, modelId(model, p, D1, s), List.of(D2)));
        }
      }
    }
    return jobs;
  }

  /** Phase 2b: every attack-dataset model attacked in the three spaces. */
  public List<AttackJob> attackJobs() {
    List<AttackJob> jobs = new ArrayList<>();
    for (String model : models) {
      for (Pattern p : patterns) {
        String spec = spec(model, p);
        for (int s = 0; s < seeds(); s++) {
          List<String> others = new ArrayList<>();
          for (int o = 0; o < seeds(); o++) {
            if (o != s) {
              others.add(modelId(model, p, scale.attackDataset(), o));
            }
          }
          for (PerturbationSpace space : SPACES) {
            String id = modelId(model, p, scale.attackDataset(), s) + "/attack-" + space.cliName();
            jobs.add(new AttackJob(id, modelId(model, p, scale.attackDataset(), s), spec, space, scale,
                scale.attackDataset(), others, 1000L * s + space.ordinal(), 0, null, sizes.graphs()));
          }
        }
      }
    }
    return jobs;
  }

  /** Runs all phases on {@code executor}; {@code progress} gets one line per finished job. */
  public RobustnessReport run(StudyExecutor executor, Consumer<String> progress) {
    long start = System.nanoTime();
    if (grid != null && chosen.isEmpty()) {
      // phase 0: the grid; the selected points' attack-dataset models are then the study's own
      List<TrainOutcome> searched = executor.train(searchJobs(), o -> progress.accept("searched " + describe(o)));
      List<SearchRow> rows = searchRows(searched);
      rows.stream().filter(SearchRow::selected).forEach(r -> progress.accept(String.format(Locale.ROOT,
          "selected for %s x %s: %s, %s (mean validation l1 %.4f)", r.model(), r.pattern().cliName(),
          r.point().spec(), r.point().suffix(), r.validationL1().mean())));
      return withChoices(rows).runPhases(executor, progress, searched, rows, start);
    }
    return runPhases(executor, progress, List.of(), List.of(), start);
  }

  private RobustnessReport runPhases(StudyExecutor executor, Consumer<String> progress, List<TrainOutcome> searched,
      List<SearchRow> rows, long start) {
    Map<String, TrainOutcome> done = new LinkedHashMap<>();
    searched.forEach(o -> done.put(o.job().modelId(), o));
    List<TrainJob> toTrain = trainJobs().stream().filter(j -> !done.containsKey(j.modelId())).toList();
    Consumer<TrainOutcome> trainedLine = o -> progress.accept(describe(o));
    Consumer<AttackOutcome> attackedLine = o -> progress.accept(String.format(Locale.ROOT,
        "attacked %s: %d graphs, NR %.3f, NR(tr.) %.3f, %.1fs", o.job().attackId(), o.summary().attacked(),
        o.summary().nr(), o.nrTransfer(), o.seconds()));
    Phases phases = executor.overlapsPhases()
        ? overlapped(executor, toTrain, trainedLine, attackedLine)
        : new Phases(executor.train(toTrain, trainedLine), executor.train(headJobs(), trainedLine),
            executor.attack(attackJobs(), attackedLine));
    List<TrainOutcome> trained = new ArrayList<>(phases.trained());
    for (TrainJob j : trainJobs()) {
      if (done.containsKey(j.modelId())) {
        trained.add(done.get(j.modelId())); // trained in the search, with this job's settings
      }
    }
    trained.addAll(phases.heads());
    return new RobustnessReport(this, trained, phases.attacks(), (System.nanoTime() - start) / 1e9, rows);
  }

  /** The outcomes of phase 1 (models trained now), 2a (heads) and 2b (attacks), each in job order. */
  private record Phases(List<TrainOutcome> trained, List<TrainOutcome> heads, List<AttackOutcome> attacks) {}

  /**
   * Phases 1 and 2 on an executor that runs phases side by side ({@link StudyExecutor#overlapsPhases}):
   * phase 2 needs only the d1 models whose heads it retrains and the models it attacks (and transfers
   * to), so it is published as soon as those are trained, while phase 1's other models (d2's) still
   * train; those are published after the ones phase 2 needs. Waiting for the whole of phase 1 left
   * devices idle.
   */
  private Phases overlapped(StudyExecutor executor, List<TrainJob> toTrain, Consumer<TrainOutcome> trainedLine,
      Consumer<AttackOutcome> attackedLine) {
    List<TrainJob> heads = headJobs();
    List<AttackJob> attackJobs = attackJobs();
    Set<String> needed = ConcurrentHashMap.newKeySet();
    heads.forEach(h -> needed.add(h.headOf()));
    attackJobs.forEach(a -> {
      needed.add(a.modelId());
      needed.addAll(a.transferTo());
    });
    needed.retainAll(toTrain.stream().map(TrainJob::modelId).toList()); // the rest were trained in the search
    CompletableFuture<Void> ready = new CompletableFuture<>();
    ExecutorService phase2 = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "robustness-phase-2");
      t.setDaemon(true);
      return t;
    });
    try {
      CompletableFuture<List<TrainOutcome>> headsDone = ready.thenApplyAsync(v -> executor.train(heads, trainedLine), phase2);
      CompletableFuture<List<AttackOutcome>> attacksDone = ready.thenApplyAsync(
          v -> executor.attack(attackJobs, attackedLine), phase2);
      if (needed.isEmpty()) {
        ready.complete(null);
      }
      List<TrainJob> neededFirst = new ArrayList<>(toTrain);
      neededFirst.sort(Comparator.comparing(j -> !needed.contains(j.modelId()))); // stable: job order otherwise
      Map<String, TrainOutcome> byId = new HashMap<>();
      for (TrainOutcome o : executor.train(neededFirst, o -> {
        trainedLine.accept(o);
        if (needed.remove(o.job().modelId()) && needed.isEmpty()) {
          ready.complete(null);
        }
      })) {
        byId.put(o.job().modelId(), o);
      }
      return new Phases(toTrain.stream().map(j -> byId.get(j.modelId())).toList(), headsDone.join(), attacksDone.join());
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    } finally {
      phase2.shutdownNow();
    }
  }

  private static String describe(TrainOutcome o) {
    StringBuilder sb = new StringBuilder("trained " + o.job().modelId() + ":");
    o.errors().forEach((d, e) -> sb.append(String.format(Locale.ROOT, " %s l1 %.3f", d, e.l1())));
    if (o.resumedFromEpoch() > 0) {
      sb.append(", resumed after epoch ").append(o.resumedFromEpoch());
    }
    return sb.append(String.format(Locale.ROOT, ", %d correct, %.1fs", o.correctTest(), o.seconds())).toString();
  }
}
