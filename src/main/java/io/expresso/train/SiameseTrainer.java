package io.expresso.train;

import io.expresso.engine.Scalars;
import io.expresso.engine.ThreadGradients;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.optimizer.Optimizer;
import io.expresso.graph.Graph;
import io.expresso.model.GraphModel;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * BREC's siamese training of one model on one pair: Adam with weight decay, ReduceLROnPlateau on
 * the epoch loss, up to {@code epochs} passes over the 2q major graphs (interleaved G₁, H₁, G₂, …)
 * in fixed order and batches of {@code batchSize}, cosine-embedding loss (margin 0, target −1),
 * early stop once the epoch mean loss is below the threshold.
 *
 * <p>A batch larger than the model's memory budget allows is split into micro-batches of whole
 * (G, H) pairs whose gradients add up before one optimizer step, each micro-batch's loss weighted
 * by its share of the batch's pairs. This gives the full batch's step, batch norm included: every
 * pair of a batch holds relabelings of the same two graphs, so any micro-batch of whole pairs has
 * the batch's per-channel statistics, as functions of the weights, not just in value.
 *
 * <p>Safe to call from several threads at once: gradients are recorded in PyTorch's thread-local
 * grad mode ({@link ThreadGradients}), so evaluations sharing a device train side by side.
 *
 * <p>Cancellation is cooperative: the token is checked before every batch (so also between
 * epochs), and a set token ends training with {@link CancellationException}; the DJL trainer is
 * closed on the way out, the model stays with its owner. The loop is our own rather than DJL's
 * {@code EasyTrain}, so the check sits in it instead of in a {@code TrainingListener}.
 */
public final class SiameseTrainer {

  private SiameseTrainer() {}

  /** As {@link #train(GraphModel, List, TrainingSettings, BooleanSupplier)}, never cancelled. */
  public static TrainingOutcome train(GraphModel model, List<Graph> major, TrainingSettings s) {
    return train(model, major, s, () -> false);
  }

  /**
   * Trains {@code model} in place.
   *
   * @param major 2q graphs, even positions relabelings of G, odd positions of H
   * @param cancelled checked before every batch
   * @throws CancellationException once {@code cancelled} is true
   */
  public static TrainingOutcome train(GraphModel model, List<Graph> major, TrainingSettings s,
      BooleanSupplier cancelled) {
    if (major.size() % 2 != 0 || major.isEmpty()) {
      throw new IllegalArgumentException("siamese training needs an even, non-empty list of graphs, got " + major.size());
    }
    long start = System.nanoTime();
    if (s.epochs() == 0) {
      return new TrainingOutcome(0, Double.NaN, 0, s.learningRate(), 0, 0);
    }
    PlateauSchedule schedule = s.schedule().start(s.learningRate());
    List<EpochListener> listeners = List.of(schedule, new LossThresholdStop(s.lossThreshold()));
    DivergenceGuard guard = new DivergenceGuard();
    DefaultTrainingConfig config = new DefaultTrainingConfig(new CosineEmbeddingLoss())
        .optOptimizer(model.optimizer(
            Optimizer.adam().optLearningRateTracker(schedule).optWeightDecays(s.weightDecay()).build()))
        .optDevices(new ai.djl.Device[] {model.device()});
    int epochs = 0;
    double loss = Double.NaN;
    int perPass = model.graphsPerTrainingPass(major.subList(0, Math.min(major.size(), s.batchSize())));
    try (Trainer trainer = model.newTrainer(config)) {
      for (int epoch = 1; epoch <= s.epochs(); epoch++) {
        double weighted = 0;
        double trainedPairs = 0;
        for (int from = 0; from < major.size(); from += s.batchSize()) {
          if (cancelled.getAsBoolean()) {
            throw new CancellationException("siamese training cancelled in epoch " + epoch + " of " + s.epochs()
                + ", before the batch at graph " + from + " of " + major.size());
          }
          List<Graph> batch = major.subList(from, Math.min(major.size(), from + s.batchSize()));
          float l = step(trainer, model, batch, perPass, guard);
          if (Float.isFinite(l)) {
            weighted += l * batch.size() / 2.0;
            trainedPairs += batch.size() / 2.0;
          }
        }
        epochs = epoch;
        // the mean over the pairs whose steps ran; NaN when all were skipped: a skipped step has no
        // loss, and counted as 0 it would read as an improvement to the schedule and the early stop
        loss = trainedPairs > 0 ? weighted / trainedPairs : Double.NaN;
        boolean stop = false;
        for (EpochListener listener : listeners) {
          stop |= listener.afterEpoch(epoch, loss);
        }
        if (stop) {
          break;
        }
      }
    }
    return new TrainingOutcome(epochs, loss, guard.skipped(), schedule.rate(), (System.nanoTime() - start) / 1e9,
        perPass);
  }

  /**
   * One optimisation step over {@code batch}, in passes of at most {@code perPass} graphs; returns
   * the batch loss (not finite: the step was skipped).
   */
  private static float step(Trainer trainer, GraphModel model, List<Graph> batch, int perPass, DivergenceGuard guard) {
    double pairs = batch.size() / 2.0;
    float value = 0f;
    boolean finite = true;
    try (GradientCollector collector = new ThreadGradients()) {
      for (int from = 0; from < batch.size() && finite; from += perPass) {
        List<Graph> pass = batch.subList(from, Math.min(batch.size(), from + perPass));
        try (NDManager sub = trainer.getManager().newSubManager()) {
          NDList inputs = model.encode(sub, pass);
          NDArray embeddings = trainer.forward(inputs).singletonOrThrow();
          NDArray loss = Scalars.mul(CosineEmbeddingLoss.of(embeddings), (float) (pass.size() / 2.0 / pairs));
          NDArray term = model.trainingLossTerm(); // OSAN's KL term: a sum over the pass's graphs
          if (term != null) {
            loss = loss.add(term);
          }
          float part = loss.getFloat();
          finite = Float.isFinite(part);
          value += part;
          if (finite && part != 0f) {
            collector.backward(loss);
            model.completeBackward(collector);
          }
        }
      }
      if (!finite) {
        value = Float.NaN;
        model.zeroGradients(); // passes before the bad one left gradients behind
      }
    }
    // A zero loss (every pair already has cosine <= 0) has a zero gradient; DJL refuses an
    // all-zero first step, and PyTorch's step would only apply momentum and decay: skip it.
    boolean apply = guard.accept(value) && value != 0f;
    if (apply) {
      OptimizerStep.apply(trainer);
    }
    return value;
  }
}
