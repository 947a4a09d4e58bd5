package io.expresso.train;

import io.expresso.engine.Devices;
import ai.djl.Model;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Block;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.ParameterTracker;
import io.expresso.count.CountingDataset;
import io.expresso.count.Pattern;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.engine.EngineSeeds;
import io.expresso.engine.ThreadGradients;
import io.expresso.model.GraphRegressor;
import io.expresso.model.RegressorSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Trains a network to regress one pattern's count as Campi et al. §6 do: L1 loss on standardised
 * counts, Adam, the learning rate halved when the validation ℓ1 has not improved for a number of
 * epochs (PyTorch's ReduceLROnPlateau, {@link PlateauSchedule}), early stopping once it has not
 * improved for longer, at most a maximum number of epochs, and the parameters of the epoch with
 * the lowest validation ℓ1 restored at the end. Initialisation and batch order are seeded.
 *
 * <p>Safe on any thread: PyTorch's grad mode is thread-local, so each step enables it on the
 * calling thread (a Pekko dispatcher thread otherwise silently trains nothing).
 *
 * <p>Cancellation is cooperative: the token is checked before every batch and before each
 * epoch's validation pass, and a set token ends training with {@link CancellationException}. The
 * DJL trainer is closed on the way out, a freshly created network too; a retrained head stays
 * with its caller, its other parameters unfrozen again.
 */
public final class CountRegressionTrainer {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CountRegressionTrainer.class);

  /**
   * How often one run may go back to its best epoch with a halved rate after a non-finite loss
   * before it stops there (as early stopping does).
   */
  static final int MAX_RECOVERIES = 5;

  /** Sees each step's gradients between the backward pass and the update (a seam for tests). */
  @FunctionalInterface
  interface GradientHook {
    void beforeStep(int epoch, Block block);
  }

  private final GradientHook gradients;

  public CountRegressionTrainer() {
    this((epoch, block) -> {});
  }

  CountRegressionTrainer(GradientHook gradients) {
    this.gradients = gradients;
  }

  /**
   * @param epochs the most passes over the training set
   * @param batchSize graphs per step
   * @param learningRate initial Adam learning rate
   * @param seed fixes initialisation and batch order
   * @param device {@code cpu} or {@code gpu:N}
   * @param plateauFactor the learning rate is multiplied by this after {@code plateauPatience}
   *     epochs without a better validation ℓ1 (the paper: 0.5)
   * @param plateauPatience see {@code plateauFactor} (the paper: 20)
   * @param stopPatience training stops after this many epochs without a better validation ℓ1
   *     (0: never early; the paper: 20–100)
   * @param rawTargets the loss is L1 on raw counts, as Campi et al.'s {@code GNN_train.py}
   *     ({@code torch.nn.L1Loss()} on {@code data.y}); false: on counts standardised by the
   *     training set's mean and standard deviation
   */
  public record Settings(int epochs, int batchSize, float learningRate, long seed, String device,
      float plateauFactor, int plateauPatience, int stopPatience, boolean rawTargets) {
    public Settings {
      if (epochs < 1 || batchSize < 1 || !(learningRate > 0)) {
        throw new IllegalArgumentException("epochs, batch size and learning rate must be positive, got "
            + epochs + ", " + batchSize + ", " + learningRate);
      }
      if (!(plateauFactor > 0 && plateauFactor <= 1) || plateauPatience < 0 || stopPatience < 0) {
        throw new IllegalArgumentException("plateau factor must be in (0, 1] and patiences >= 0, got "
            + plateauFactor + ", " + plateauPatience + ", " + stopPatience);
      }
    }

    /** Standardised targets. */
    public Settings(int epochs, int batchSize, float learningRate, long seed, String device,
        float plateauFactor, int plateauPatience, int stopPatience) {
      this(epochs, batchSize, learningRate, seed, device, plateauFactor, plateauPatience, stopPatience, false);
    }

    /** The paper's plateau decay (0.5 after 20 epochs), no early stop: every epoch runs. */
    public Settings(int epochs, int batchSize, float learningRate, long seed, String device) {
      this(epochs, batchSize, learningRate, seed, device, 0.5f, 20, 0);
    }

    public Settings withSeed(long s) {
      return new Settings(epochs, batchSize, learningRate, s, device, plateauFactor, plateauPatience, stopPatience,
          rawTargets);
    }

    public Settings withEpochs(int e) {
      return new Settings(e, batchSize, learningRate, seed, device, plateauFactor, plateauPatience, stopPatience,
          rawTargets);
    }

    /** Whether a run that has trained {@code epoch} epochs, its best at {@code bestEpoch}, trains no more. */
    public boolean finished(int epoch, int bestEpoch) {
      return epoch >= epochs || (stopPatience > 0 && epoch - bestEpoch >= stopPatience);
    }
  }

  /**
   * One finished epoch, for progress reporting and metrics.
   *
   * @param trainLoss mean training L1 (in counts) over the epoch's batches
   * @param learningRate the rate the epoch trained with
   */
  public record Epoch(int epoch, double trainLoss, double validationL1, double learningRate) {}

  /**
   * A training run's result.
   *
   * @param epochs epochs trained (fewer than the maximum when it stopped early)
   * @param finalLoss mean training L1 (in counts) of the last epoch
   * @param bestEpoch the epoch whose parameters were kept
   * @param seconds training time of this attempt (a resumed run's earlier attempts not included)
   * @param resumedFromEpoch the epoch a saved state let this run start after (0: from scratch)
   * @param divergedInEpoch the epoch whose loss turned non-finite once more after
   *     {@link #MAX_RECOVERIES} recoveries (each back to the best epoch at a smaller rate), ending
   *     training with the best epoch restored (0: training did not give up)
   * @param recoveries how often a non-finite loss sent training back to its best epoch at a smaller rate
   */
  public record Run(TrainedCountModel model, int epochs, double finalLoss, double bestValidationL1,
      int bestEpoch, double seconds, int resumedFromEpoch, int divergedInEpoch, int recoveries) {}

  /** Trains a fresh network of {@code spec} on {@code train}, selecting on {@code validation}. */
  public Run train(RegressorSpec spec, Pattern pattern, CountingDataset train, CountingDataset validation,
      Settings settings, Consumer<Epoch> progress) {
    return train(spec, pattern, train, validation, settings, progress, () -> false);
  }

  /**
   * As {@link #train(RegressorSpec, Pattern, CountingDataset, CountingDataset, Settings, Consumer)},
   * stopping with {@link CancellationException} once {@code cancelled} is true.
   */
  public Run train(RegressorSpec spec, Pattern pattern, CountingDataset train, CountingDataset validation,
      Settings settings, Consumer<Epoch> progress, BooleanSupplier cancelled) {
    return train(spec, pattern, train, validation, settings, progress, cancelled, ProgressSaving.NONE);
  }

  /**
   * As {@link #train(RegressorSpec, Pattern, CountingDataset, CountingDataset, Settings, Consumer,
   * BooleanSupplier)}, continuing from {@code saving}'s state when it has one and saving the state
   * as {@code saving} asks.
   */
  public Run train(RegressorSpec spec, Pattern pattern, CountingDataset train, CountingDataset validation,
      Settings settings, Consumer<Epoch> progress, BooleanSupplier cancelled, ProgressSaving saving) {
    GraphRegressor net = spec.create();
    Model model = io.expresso.engine.Devices.newModel(spec.architecture(), io.expresso.engine.Devices.parse(settings.device()));
    model.setBlock(net.block());
    double[] map = settings.rawTargets() ? RAW : targetMap(train, pattern);
    TrainedCountModel m = new TrainedCountModel(model, spec, net, pattern, map[0], map[1]);
    try {
      return fit(m, net.block(), train, validation, settings, progress, true, cancelled, saving);
    } catch (RuntimeException e) {
      m.close();
      throw e;
    }
  }

  /**
   * Retrains only the final MLP ({@link GraphRegressor#head()}) of {@code trained} on new data, the
   * other parameters frozen (Campi et al. §6.2, row "MLP"); the count map is refitted to the new
   * data as part of the head. Changes {@code trained} in place.
   */
  public Run retrainHead(TrainedCountModel trained, CountingDataset train, CountingDataset validation,
      Settings settings, Consumer<Epoch> progress) {
    return retrainHead(trained, train, validation, settings, progress, () -> false);
  }

  /**
   * As {@link #retrainHead(TrainedCountModel, CountingDataset, CountingDataset, Settings, Consumer)},
   * stopping with {@link CancellationException} once {@code cancelled} is true ({@code trained} is
   * then part-trained; the caller closes it).
   */
  public Run retrainHead(TrainedCountModel trained, CountingDataset train, CountingDataset validation,
      Settings settings, Consumer<Epoch> progress, BooleanSupplier cancelled) {
    return retrainHead(trained, train, validation, settings, progress, cancelled, ProgressSaving.NONE);
  }

  /** As the head retraining above, continuing from and saving state as {@code saving} asks. */
  public Run retrainHead(TrainedCountModel trained, CountingDataset train, CountingDataset validation,
      Settings settings, Consumer<Epoch> progress, BooleanSupplier cancelled, ProgressSaving saving) {
    double[] map = settings.rawTargets() ? RAW : targetMap(train, trained.pattern());
    trained.setTargetMap(map[0], map[1]);
    Block whole = trained.net().block();
    whole.freezeParameters(true);
    trained.net().head().freezeParameters(false);
    try {
      return fit(trained, whole, train, validation, settings, progress, false, cancelled, saving);
    } finally {
      whole.freezeParameters(false);
    }
  }

  private Run fit(TrainedCountModel m, Block block, CountingDataset train, CountingDataset validation,
      Settings s, Consumer<Epoch> progress, boolean initialise, BooleanSupplier cancelled, ProgressSaving saving) {
    long start = System.nanoTime();
    Pattern pattern = m.pattern();
    int n = train.graphs().size();
    // the plateau is judged on validation l1, as the paper's scheduler.step(validation_loss)
    PlateauSchedule lr = new PlateauSchedule(s.learningRate(), s.plateauFactor(), s.plateauPatience(),
        s.learningRate() * 1e-4f);
    // a fresh Adam per trainer: a recovery below needs its moments afresh, not only the parameters
    Supplier<Trainer> newTrainer = () -> m.model().newTrainer(new DefaultTrainingConfig(Loss.l1Loss())
        .optOptimizer(optimizer(lr)));
    SplitMix64 rnd = new SplitMix64(s.seed() * 0x9E3779B97F4A7C15L + 1);
    double bestVal = Double.POSITIVE_INFINITY;
    int bestEpoch = 0;
    byte[] best = null;
    double lastLoss = Double.NaN;
    int trained;
    int diverged = 0;
    int recoveries = 0;
    int resumed;
    Trainer trainer = newTrainer.get();
    try {
      if (initialise) {
        Trainer first = trainer;
        EngineSeeds.seeded(s.seed(), () -> first.initialize(m.net().inputShapes(m.model().getNDManager())));
      }
      int epoch = 0;
      TrainingState saved = saving.resumeFrom();
      if (saved != null) {
        if (saved.seed() != s.seed()) {
          throw new IllegalArgumentException("training state of seed " + saved.seed() + " cannot resume a run of seed "
              + s.seed());
        }
        // everything but Adam's moments (see TrainingState): the optimiser restarts on these parameters
        ParameterValues.restore(block, saved.parameters());
        epoch = saved.epoch();
        bestVal = saved.bestValidationL1();
        bestEpoch = saved.bestEpoch();
        best = saved.bestParameters();
        lastLoss = saved.lastLoss();
        lr.restore(saved.plateau());
        rnd = new SplitMix64(saved.orderState());
      }
      int resumedFrom = epoch;
      int savedAt = epoch;
      long savedNanos = System.nanoTime();
      while (diverged == 0 && !s.finished(epoch, bestEpoch)) {
        epoch++;
        float rate = lr.rate();
        int[] order = rnd.permutation(n);
        double lossSum = 0;
        for (int from = 0; from < n && diverged == 0; from += s.batchSize()) {
          checkCancelled(cancelled, epoch, s, "the batch at graph " + from + " of " + n);
          List<Graph> batch = new ArrayList<>();
          float[] y = new float[Math.min(s.batchSize(), n - from)];
          for (int k = 0; k < y.length; k++) {
            int g = order[from + k];
            batch.add(train.graphs().get(g));
            y[k] = (float) ((train.count(g, pattern) - m.mean()) / m.scale());
          }
          JniUtils.setGradMode(true); // thread-local in PyTorch: enable on this thread
          try (NDManager sub = trainer.getManager().newSubManager()) {
            NDList in = m.net().inputs(sub, batch);
            NDArray label = sub.create(y);
            try (GradientCollector gc = new ThreadGradients()) { // this thread's graph only: trainings run side by side
              NDList pred = trainer.forward(in);
              NDArray loss = trainer.getLoss().evaluate(new NDList(label), pred);
              float l = loss.getFloat();
              if (!Float.isFinite(l)) {
                if (best == null) {
                  throw new IllegalStateException("training diverged: non-finite loss in epoch " + epoch);
                }
                diverged = epoch;
                break;
              }
              lossSum += l * y.length;
              gc.backward(loss);
            }
            gradients.beforeStep(epoch, block);
            OptimizerStep.apply(trainer);
          }
        }
        if (diverged > 0) {
          epoch--; // the diverged epoch did not finish
          if (++recoveries > MAX_RECOVERIES) {
            break; // as early stopping does: end here, the best validated epoch restored below
          }
          // a step too large for where training stood: back to the best validated epoch, a smaller rate, on
          LOG.warn("non-finite loss in epoch {}: back to epoch {} (validation l1 {}), learning rate {} -> {} ({} of {}"
              + " recoveries)", epoch + 1, bestEpoch, bestVal, lr.rate(), lr.rate() * s.plateauFactor(), recoveries,
              MAX_RECOVERIES);
          ParameterValues.restore(block, best);
          // Adam's moments took in the step that overflowed: kept, they would put it back at once
          trainer.close();
          trainer = null;
          trainer = newTrainer.get();
          lr.decay();
          diverged = 0;
          continue;
        }
        lastLoss = lossSum / n * m.scale();
        checkCancelled(cancelled, epoch, s, "validation");
        double val = validation.graphs().isEmpty() ? lastLoss : m.evaluate(validation).l1();
        if (val < bestVal) {
          bestVal = val;
          bestEpoch = epoch;
          best = ParameterValues.snapshot(block);
        }
        lr.afterEpoch(epoch, val);
        if (progress != null) {
          progress.accept(new Epoch(epoch, lastLoss, val, rate));
        }
        boolean last = s.finished(epoch, bestEpoch);
        if (!last && saving.saves() && saving.due(epoch - savedAt, System.nanoTime() - savedNanos)) {
          saving.save().accept(new TrainingState(epoch, s.seed(), ParameterValues.snapshot(block), best, bestEpoch,
              bestVal, lastLoss, lr.state(), rnd.state()));
          savedAt = epoch;
          savedNanos = System.nanoTime();
        }
      }
      if (diverged == 0 && epoch > resumedFrom && saving.saves()) {
        // the finished run's state: another delivery of the same job resumes here and trains nothing
        saving.save().accept(new TrainingState(epoch, s.seed(), ParameterValues.snapshot(block), best, bestEpoch,
            bestVal, lastLoss, lr.state(), rnd.state()));
      }
      trained = epoch;
      resumed = resumedFrom;
    } finally {
      if (trainer != null) {
        trainer.close();
      }
    }
    if (best != null) {
      ParameterValues.restore(block, best);
    }
    return new Run(m, trained, lastLoss, bestVal, bestEpoch, (System.nanoTime() - start) / 1e9, resumed, diverged,
        Math.min(recoveries, MAX_RECOVERIES));
  }

  /** Adam as DJL's, updating on the calling thread ({@link SerialAdam}). */
  static Optimizer optimizer(ParameterTracker learningRate) {
    return new SerialAdam(learningRate);
  }

  private static void checkCancelled(BooleanSupplier cancelled, int epoch, Settings s, String before) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("count-regression training cancelled in epoch " + epoch + " of "
          + s.epochs() + ", before " + before);
    }
  }

  /** The identity map: the network regresses raw counts. */
  private static final double[] RAW = {0, 1};

  /** Mean and standard deviation (at least 1) of the training counts. */
  private static double[] targetMap(CountingDataset train, Pattern pattern) {
    int n = train.graphs().size();
    double mean = 0;
    for (int g = 0; g < n; g++) {
      mean += train.count(g, pattern);
    }
    mean /= Math.max(1, n);
    double var = 0;
    for (int g = 0; g < n; g++) {
      double d = train.count(g, pattern) - mean;
      var += d * d;
    }
    double sd = Math.sqrt(var / Math.max(1, n - 1));
    return new double[] {mean, Math.max(1.0, sd)};
  }


  static DataType dtype() {
    return DataType.FLOAT32;
  }
}
