package io.expresso.robust;

import io.expresso.attack.AdversarialRule;
import io.expresso.attack.AttackCampaign;
import io.expresso.attack.AttackCurves;
import io.expresso.attack.AttackResult;
import io.expresso.attack.CountModel;
import io.expresso.count.CountingSplit;
import io.expresso.graph.Graph;
import io.expresso.model.RegressorSpec;
import io.expresso.train.CountErrors;
import io.expresso.train.CountRegressionTrainer;
import io.expresso.train.ProgressSaving;
import io.expresso.train.TrainingState;
import io.expresso.train.TrainedCountModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Runs one train or attack job on this process's device: the unit of work behind both the
 * in-process executor and the Kafka evaluators. Loaded models are kept for the next job (a worker
 * attacks the same models many times); not thread-safe, one runner per device.
 *
 * <p>A job given a cancellation token stops at the next training batch, beam step or target graph
 * once it is set, with {@link CancellationException}; a model it was training is closed, nothing
 * is stored.
 */
public final class JobRunner implements AutoCloseable {

  /** What counts as an adversarial example (the paper's δ = 1); results record its δ. */
  public static final AdversarialRule RULE = AdversarialRule.paper();
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JobRunner.class);

  private final Map<String, TrainedCountModel> loaded = new LinkedHashMap<>();
  private final CountRegressionTrainer trainer = new CountRegressionTrainer();

  /**
   * Save a running train job's state this often (epochs), or after this long, whichever comes first.
   * {@code -Dexpresso.train.save-every-epochs=N} changes the epochs: a run cut off at a fixed time (a
   * GPU lent for one session) loses at most that many, and a save costs a copy of the parameters.
   */
  static final int SAVE_EVERY_EPOCHS = Integer.getInteger("expresso.train.save-every-epochs", 5);
  static final Duration SAVE_EVERY = Duration.ofMinutes(2);

  private final ModelStore store;
  private final String device;
  private final int saveEveryEpochs;
  private final Duration saveEvery;

  public JobRunner(ModelStore store, String device) {
    this(store, device, SAVE_EVERY_EPOCHS, SAVE_EVERY);
  }

  /**
   * @param saveEveryEpochs save a train job's progress after this many epochs (0: by time only)
   * @param saveEvery or once this long has passed since the last save (null: by epochs only)
   */
  public JobRunner(ModelStore store, String device, int saveEveryEpochs, Duration saveEvery) {
    this.store = store;
    this.device = device;
    this.saveEveryEpochs = saveEveryEpochs;
    this.saveEvery = saveEvery;
  }

  /** Trains (or retrains the head of) a model, stores its checkpoint and tests it. */
  public TrainOutcome train(TrainJob job) {
    return train(job, () -> false);
  }

  /** Told about every finished epoch of a train job (the worker sends it to {@code expresso.progress}). */
  @FunctionalInterface
  public interface EpochObserver {
    /** @param maxEpochs the most epochs the job may train */
    void epoch(TrainJob job, int maxEpochs, CountRegressionTrainer.Epoch epoch);
  }

  /** As {@link #train(TrainJob)}, stopping with {@link CancellationException} once {@code cancelled} is true. */
  public TrainOutcome train(TrainJob job, BooleanSupplier cancelled) {
    return train(job, cancelled, (j, max, e) -> {});
  }

  /** As {@link #train(TrainJob, BooleanSupplier)}, telling {@code observer} each finished epoch. */
  public TrainOutcome train(TrainJob job, BooleanSupplier cancelled, EpochObserver observer) {
    CountingSplit data = StudyData.get(job.dataset(), job.datasetSize());
    // the architecture × pattern recipe trains it; the scale (or the job) only caps the epochs
    CountRegressionTrainer.Settings settings = job.recipe(RegressorSpec.parse(job.spec()).architecture())
        .settings(job.seed(), device);
    java.util.function.Consumer<CountRegressionTrainer.Epoch> progress = e -> {
      LOG.info("{} epoch {}: train l1 {}, validation l1 {}, lr {}", job.modelId(), e.epoch(),
          String.format(java.util.Locale.ROOT, "%.4f", e.trainLoss()),
          String.format(java.util.Locale.ROOT, "%.4f", e.validationL1()), e.learningRate());
      observer.epoch(job, settings.epochs(), e);
    };
    ProgressSaving saving = new ProgressSaving(savedState(job), saveEveryEpochs, saveEvery,
        state -> store.putProgress(job, state.toBytes()));
    CountRegressionTrainer.Run run;
    if (job.headOf() == null) {
      RegressorSpec spec = RegressorSpec.parse(job.spec());
      run = trainer.train(spec, job.pattern(), data.train(), data.validation(), settings, progress, cancelled, saving);
    } else {
      // A private copy: the stored base model stays as it was trained.
      TrainedCountModel base = TrainedCountModel.fromBytes(checkpoint(job.headOf()), device);
      try {
        run = trainer.retrainHead(base, data.train(), data.validation(), settings, progress, cancelled, saving);
      } catch (RuntimeException e) {
        base.close(); // the copy is ours until remembered: free its native memory
        throw e;
      }
    }
    if (run.divergedInEpoch() > 0) {
      LOG.warn("{}: loss non-finite in epoch {}; stopped there with epoch {} (the best validated) restored",
          job.modelId(), run.divergedInEpoch(), run.bestEpoch());
    }
    TrainedCountModel model = run.model();
    Map<String, CountErrors> errors = new LinkedHashMap<>();
    int correct;
    try {
      // A cancelled job's checkpoint is not stored: its next attempt trains and stores it again.
      if (cancelled.getAsBoolean()) {
        throw new CancellationException("train job " + job.modelId() + " cancelled after training, before storing it");
      }
      store.put(job, model.toBytes());
      if (run.divergedInEpoch() > 0) {
        store.deleteProgress(job.modelId()); // it gave up: another attempt may train afresh
      }
      // otherwise the finished state stays: Kafka delivers a task at least once, and another
      // delivery of this job resumes that state, trains nothing and reports the same model
      for (String d : job.testOn()) {
        errors.put(d, model.evaluate(StudyData.get(d, job.datasetSize()).test()));
      }
      correct = model.correctlyPredicted(data.test()).size();
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    remember(job.modelId(), model);
    return new TrainOutcome(job, errors, run.epochs(), run.finalLoss(), run.bestEpoch(),
        run.bestValidationL1(), correct, run.seconds(), run.resumedFromEpoch());
  }

  /** The state an earlier attempt of {@code job} saved, or null; an unreadable one is dropped, not fatal. */
  private TrainingState savedState(TrainJob job) {
    java.util.Optional<byte[]> bytes = store.getProgress(job);
    if (bytes.isEmpty()) {
      return null;
    }
    try {
      TrainingState state = TrainingState.fromBytes(bytes.get());
      LOG.info("{}: resuming after epoch {} (best epoch {}, validation l1 {}) saved by an earlier attempt",
          job.modelId(), state.epoch(), state.bestEpoch(), state.bestValidationL1());
      return state;
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: ignoring its saved progress ({}); training from scratch", job.modelId(), e.getMessage());
      return null;
    }
  }

  /** Attacks a stored model on its correctly predicted test graphs and scores transfer. */
  public AttackOutcome attack(AttackJob job) {
    return attack(job, () -> false);
  }

  /** As {@link #attack(AttackJob)}, stopping with {@link CancellationException} once {@code cancelled} is true. */
  public AttackOutcome attack(AttackJob job, BooleanSupplier cancelled) {
    long start = System.nanoTime();
    CountingSplit data = StudyData.get(job.dataset(), job.datasetSize());
    TrainedCountModel model = load(job.modelId());
    List<Graph> targets = new ArrayList<>();
    for (int g : model.correctlyPredicted(data.test())) {
      if (targets.size() == job.scale().attacked()) {
        break;
      }
      targets.add(data.test().graphs().get(g));
    }
    AdversarialRule rule = RULE;
    AttackCampaign campaign = new AttackCampaign(model.pattern(), job.space(), job.budgetFractions(),
        job.beamWidth(), job.scale().candidatesPerMember(), rule, job.seed());
    AttackCampaign.Summary summary = campaign.run(targets, model, StudyData.meanEdges(data), List.of(), cancelled);
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("attack job on " + job.modelId() + " cancelled before scoring transfer");
    }
    List<CountModel> others = new ArrayList<>();
    for (String id : job.transferTo()) {
      others.add(load(id));
    }
    List<AttackResult> results = summary.results();
    boolean[][] transfers = others.isEmpty() ? new boolean[results.size()][summary.budgets().length]
        : AttackCurves.transfers(results, others, rule, summary.budgets());
    double[] rate = AttackCurves.transferRate(results, transfers, summary.budgets());
    double nrTransfer = others.isEmpty() ? Double.NaN : AttackCurves.normalisedAuc(summary.fractions(), rate);
    return new AttackOutcome(job, summary, transfers, rate, nrTransfer, (System.nanoTime() - start) / 1e9);
  }

  private byte[] checkpoint(String modelId) {
    return store.get(modelId).orElseThrow(() -> new IllegalArgumentException(
        "model '" + modelId + "' is not in the model store"));
  }

  private TrainedCountModel load(String modelId) {
    TrainedCountModel m = loaded.get(modelId);
    if (m == null) {
      m = TrainedCountModel.fromBytes(checkpoint(modelId), device);
      remember(modelId, m);
    }
    return m;
  }

  private void remember(String modelId, TrainedCountModel m) {
    TrainedCountModel old = loaded.put(modelId, m);
    if (old != null && old != m) {
      old.close();
    }
    if (loaded.size() > 32) {
      String eldest = loaded.keySet().iterator().next();
      loaded.remove(eldest).close();
    }
  }

  @Override
  public void close() {
    loaded.values().forEach(TrainedCountModel::close);
    loaded.clear();
  }
}
