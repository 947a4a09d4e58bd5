package io.expresso.robust;

import io.expresso.attack.PerturbationSpace;
import io.expresso.count.Pattern;
import io.expresso.model.RegressorSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 */
public record RobustnessExperiment(String experimentId, Scale scale, List<String> models,
    List<Pattern> patterns, boolean ood, Sizes sizes) {

  /**
   * Overrides of a scale's size ({@code --graphs}, {@code --seeds}, {@code --max-epochs}); 0 keeps
   * the scale's value. Graphs and epochs travel in every job, so workers generate and train alike.
   */
  public record Sizes(int graphs, int seeds, int maxEpochs) {
    public static final Sizes SCALE = new Sizes(0, 0, 0);

    public Sizes {
      if (graphs < 0 || seeds < 0 || maxEpochs < 0) {
        throw new IllegalArgumentException("--graphs, --seeds and --max-epochs must be positive, got "
            + graphs + ", " + seeds + ", " + maxEpochs);
      }
      if (graphs > 0 && graphs < 10) {
        throw new IllegalArgumentException("--graphs must be at least 10 (the 30/20/50 split), got " + graphs);
      }
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

  private TrainJob trainJob(String id, String spec, Pattern p, String dataset, int seed, String headOf,
      List<String> testOn) {
    return new TrainJob(id, spec, p, dataset, scale, seed, headOf, testOn, sizes.graphs(), sizes.maxEpochs());
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
    if (scale.seeds() < 1) {
      throw new IllegalArgumentException("scale " + scale.cliName() + " has no seeds");
    }
  }

  static String architecture(String spec) {
    return RegressorSpec.parse(spec).architecture();
  }

  /** The full spec of model option {@code model} for pattern {@code p} at this scale. */
  public String spec(String model, Pattern p) {
    return StudyJobs.resolveSpec(model, p, scale);
  }

  String modelId(String spec, Pattern p, String dataset, int seed) {
    return StudyJobs.modelId(experimentId, spec, p, dataset, seed);
  }

  String headId(String spec, Pattern p, int seed) {
    return modelId(spec, p, D1, seed) + "/head-" + D2;
  }

  private boolean attackOnD1() {
    return scale.attackDataset().equals(D1);
  }

  /** Phase 1: every model trained from scratch. */
  public List<TrainJob> trainJobs() {
    List<TrainJob> jobs = new ArrayList<>();
    for (String model : models) {
      for (Pattern p : patterns) {
        String spec = spec(model, p);
        for (int s = 0; s < seeds(); s++) {
          List<String> testOn = new ArrayList<>(List.of(scale.attackDataset()));
          if (ood && attackOnD1()) {
            testOn.add(D2);
          }
          jobs.add(trainJob(modelId(spec, p, scale.attackDataset(), s), spec, p, scale.attackDataset(), s, null,
              testOn));
          if (ood) {
            if (!attackOnD1()) {
              jobs.add(trainJob(modelId(spec, p, D1, s), spec, p, D1, s, null, List.of(D1, D2)));
            }
            jobs.add(trainJob(modelId(spec, p, D2, s), spec, p, D2, s, null, List.of(D2)));
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
          jobs.add(trainJob(headId(spec, p, s), spec, p, D2, s, modelId(spec, p, D1, s), List.of(D2)));
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
              others.add(modelId(spec, p, scale.attackDataset(), o));
            }
          }
          for (PerturbationSpace space : SPACES) {
            String id = modelId(spec, p, scale.attackDataset(), s) + "/attack-" + space.cliName();
            jobs.add(new AttackJob(id, modelId(spec, p, scale.attackDataset(), s), spec, space, scale,
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
    List<TrainOutcome> trained = new ArrayList<>(executor.train(trainJobs(), o -> progress.accept(describe(o))));
    trained.addAll(executor.train(headJobs(), o -> progress.accept(describe(o))));
    List<AttackOutcome> attacks = executor.attack(attackJobs(), o -> progress.accept(String.format(Locale.ROOT,
        "attacked %s: %d graphs, NR %.3f, NR(tr.) %.3f, %.1fs", o.job().attackId(), o.summary().attacked(),
        o.summary().nr(), o.nrTransfer(), o.seconds())));
    return new RobustnessReport(this, trained, attacks, (System.nanoTime() - start) / 1e9);
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
