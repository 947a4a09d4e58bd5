package io.expresso.train;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import io.expresso.count.SplitMix64;
import io.expresso.engine.ThreadGradients;
import io.expresso.graph.Graph;
import io.expresso.model.GraphBatch;
import io.expresso.model.GraphModel;
import io.expresso.model.LaplacianPe;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Trains a graph classifier or regressor under a {@link DatasetProtocol}. A classifier's output row
 * is the class logits (a {@link GraphModel} whose embedding size is the number of classes — GIN's
 * sum of per-layer linear read-outs, as in Xu et al. and Dwivedi et al.), trained with softmax
 * cross-entropy; a regressor's is one number per graph (embedding size 1), trained with the L1 loss
 * as the benchmark trains ZINC. Both: Adam, the rate decayed on the validation loss's plateau,
 * stopped once it falls below the protocol's floor or the wall-time cap is reached. As the reference
 * code, the test scores are the final model's (no best-epoch selection). Positional encodings, when
 * the spec has them, get random sign flips per batch and column in training (the reference code's
 * per-batch flip). Node labels travel with the graphs ({@link GraphBatch}) to a model that reads them.
 *
 * <p>Batch order and sign flips follow {@code seed} (SplitMix64); initial weights follow the
 * seed the model was created with. Cancellation is checked before every batch.
 */
public final class GraphClassifierTrainer {

  /** Why training ended. */
  public enum Stop { MIN_LEARNING_RATE, MAX_EPOCHS, MAX_TIME }

  /**
   * One part of a fold (training, validation or test graphs): the graphs, with node labels when the
   * model reads them, and what each should give — a class index ({@code labels}) or a real target
   * ({@code targets}), exactly one of the two.
   */
  public record Examples(GraphBatch graphs, int[] labels, double[] targets) {

    public Examples {
      if ((labels == null) == (targets == null)) {
        throw new IllegalArgumentException("examples have either class labels or regression targets");
      }
      int n = labels != null ? labels.length : targets.length;
      if (n != graphs.size()) {
        throw new IllegalArgumentException(n + (labels != null ? " labels" : " targets") + " for " + graphs.size()
            + " graphs");
      }
    }

    /** Graphs with class indices. */
    public static Examples classes(GraphBatch graphs, int[] labels) {
      return new Examples(graphs, labels, null);
    }

    /** Unlabelled graphs with class indices. */
    public static Examples classes(List<Graph> graphs, int[] labels) {
      return classes(GraphBatch.of(graphs), labels);
    }

    /** Graphs with real targets. */
    public static Examples targets(GraphBatch graphs, double[] targets) {
      return new Examples(graphs, null, targets);
    }

    public boolean regression() {
      return targets != null;
    }

    public int size() {
      return graphs.size();
    }
  }

  /** One finished epoch; for a regressor the validation loss is the validation MAE and the accuracy NaN. */
  public record Epoch(int epoch, double trainLoss, double validationLoss, double validationAccuracy, double learningRate) {}

  /**
   * A finished run. A classifier's accuracies are fractions in [0, 1] and its predictions class
   * indices, one per test graph in order; a regressor's mean absolute errors are in the target's
   * units and its outputs one number per test graph. The other kind's scores are NaN and its
   * per-graph array is empty.
   */
  public record Outcome(int epochs, double trainLoss, double validationLoss, double trainAccuracy,
      double validationAccuracy, double testAccuracy, int[] testPredictions, double trainMae, double validationMae,
      double testMae, double[] testOutputs, double finalLearningRate, Stop stop, double seconds) {}

  private GraphClassifierTrainer() {}

  /**
   * Trains {@code model} on {@code train}, deciding the schedule on {@code validation}, and scores
   * the final model on all three parts.
   *
   * @throws IllegalArgumentException when the parts mix classification and regression, or a
   *     regressor's model does not have exactly one output
   * @throws IllegalStateException "training diverged" on a non-finite loss
   */
  public static Outcome train(GraphModel model, Examples train, Examples validation, Examples test, DatasetProtocol p,
      long seed, BooleanSupplier cancelled, Consumer<Epoch> progress) {
    boolean regression = train.regression();
    if (validation.regression() != regression || test.regression() != regression) {
      throw new IllegalArgumentException("training, validation and test examples must all be classes or all targets");
    }
    if (regression && model.embeddingWidth() != 1) {
      throw new IllegalArgumentException("a regressor has one output per graph; " + model.spec().toText() + " has "
          + model.embeddingWidth());
    }
    long start = System.nanoTime();
    // capped at a year so that start + cap cannot overflow
    long deadline = start + (long) (Math.min(p.maxHours(), 24 * 365) * 3600e9);
    // no floor in the schedule itself: the protocol stops once the rate is below its minimum
    PlateauSchedule schedule = new PlateauSchedule(p.learningRate(), p.decayFactor(), p.patience(), 0f);
    DefaultTrainingConfig config = new DefaultTrainingConfig(regression ? Loss.l1Loss() : Loss.softmaxCrossEntropyLoss())
        .optOptimizer(model.optimizer(Optimizer.adam().optLearningRateTracker(schedule).build()))
        .optDevices(new ai.djl.Device[] {model.device()});
    SplitMix64 rnd = new SplitMix64(seed * 0x9E3779B97F4A7C15L + 7);
    int k = model.spec() instanceof io.expresso.model.ModelSpec s ? s.pe() : 0; // TorchScript modules take no encodings
    int n = train.size();
    int epoch = 0;
    double trainLoss = Double.NaN;
    double[] val = {Double.NaN, Double.NaN};
    Stop stop;
    try (Trainer trainer = model.newTrainer(config)) {
      while (true) {
        if (schedule.rate() < p.minLearningRate()) {
          stop = Stop.MIN_LEARNING_RATE;
          break;
        }
        if (epoch >= p.maxEpochs()) {
          stop = Stop.MAX_EPOCHS;
          break;
        }
        if (System.nanoTime() > deadline) {
          stop = Stop.MAX_TIME;
          break;
        }
        epoch++;
        double rate = schedule.rate();
        int[] order = rnd.permutation(n);
        double sum = 0;
        for (int from = 0; from < n; from += p.batchSize()) {
          if (cancelled.getAsBoolean()) {
            throw new CancellationException((regression ? "regressor" : "classifier") + " training cancelled in epoch "
                + epoch + ", before the batch at graph " + from + " of " + n);
          }
          int[] picked = Arrays.copyOfRange(order, from, Math.min(n, from + p.batchSize()));
          GraphBatch batch = train.graphs().select(picked);
          float[] signs = k > 0 ? LaplacianPe.signs(k, rnd::nextLong) : null;
          JniUtils.setGradMode(true); // thread-local in PyTorch: enable it on this thread
          try (NDManager sub = trainer.getManager().newSubManager()) {
            NDList in = model.encode(sub, batch, signs);
            NDArray y = regression ? sub.create(values(train.targets(), picked), new Shape(picked.length, 1))
                : sub.create(classes(train.labels(), picked));
            try (GradientCollector gc = new ThreadGradients()) { // this thread's graph only: trainings run side by side
              NDList out = trainer.forward(in);
              NDArray loss = trainer.getLoss().evaluate(new NDList(y), out);
              NDArray term = model.trainingLossTerm(); // OSAN's KL term
              float l = loss.getFloat();
              loss = term == null ? loss : loss.add(term);
              if (!Float.isFinite(l)) {
                throw new IllegalStateException("training diverged: non-finite loss in epoch " + epoch);
              }
              sum += l * picked.length;
              gc.backward(loss);
              model.completeBackward(gc);
            }
            OptimizerStep.apply(trainer);
          }
        }
        trainLoss = sum / n;
        val = regression ? new double[] {mae(outputs(model, validation.graphs()), validation.targets()), Double.NaN}
            : lossAndAccuracy(model, validation);
        schedule.afterEpoch(epoch, val[0]);
        if (progress != null) {
          progress.accept(new Epoch(epoch, trainLoss, val[0], val[1], rate));
        }
      }
    }
    if (regression) {
      double[] outputs = outputs(model, test.graphs());
      return new Outcome(epoch, trainLoss, val[0], Double.NaN, Double.NaN, Double.NaN, new int[0],
          mae(outputs(model, train.graphs()), train.targets()), val[0], mae(outputs, test.targets()), outputs,
          schedule.rate(), stop, (System.nanoTime() - start) / 1e9);
    }
    int[] predictions = predict(model, test.graphs());
    return new Outcome(epoch, trainLoss, val[0], lossAndAccuracy(model, train)[1], val[1],
        accuracy(predictions, test.labels()), predictions, Double.NaN, Double.NaN, Double.NaN, new double[0],
        schedule.rate(), stop, (System.nanoTime() - start) / 1e9);
  }

  /** Class predictions (argmax of the logits) in evaluation mode. */
  public static int[] predict(GraphModel model, GraphBatch graphs) {
    float[][] logits = model.embed(graphs);
    int[] out = new int[logits.length];
    for (int i = 0; i < logits.length; i++) {
      out[i] = argmax(logits[i]);
    }
    return out;
  }

  /** A regressor's outputs (its one column) in evaluation mode. */
  public static double[] outputs(GraphModel model, GraphBatch graphs) {
    float[][] rows = model.embed(graphs);
    double[] out = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      out[i] = rows[i][0];
    }
    return out;
  }

  /** Mean cross-entropy and accuracy in evaluation mode. */
  static double[] lossAndAccuracy(GraphModel model, Examples examples) {
    float[][] logits = model.embed(examples.graphs());
    int[] labels = examples.labels();
    double loss = 0;
    int correct = 0;
    for (int i = 0; i < logits.length; i++) {
      double max = Double.NEGATIVE_INFINITY;
      for (float v : logits[i]) {
        max = Math.max(max, v);
      }
      double z = 0;
      for (float v : logits[i]) {
        z += Math.exp(v - max);
      }
      loss += Math.log(z) + max - logits[i][labels[i]];
      correct += argmax(logits[i]) == labels[i] ? 1 : 0;
    }
    return new double[] {loss / logits.length, correct / (double) logits.length};
  }

  /** The fraction of predictions equal to their label. */
  public static double accuracy(int[] predictions, int[] labels) {
    int correct = 0;
    for (int i = 0; i < predictions.length; i++) {
      correct += predictions[i] == labels[i] ? 1 : 0;
    }
    return predictions.length == 0 ? Double.NaN : correct / (double) predictions.length;
  }

  /** Mean absolute error of {@code outputs} against {@code targets}; NaN when empty. */
  public static double mae(double[] outputs, double[] targets) {
    double sum = 0;
    for (int i = 0; i < outputs.length; i++) {
      sum += Math.abs(outputs[i] - targets[i]);
    }
    return outputs.length == 0 ? Double.NaN : sum / outputs.length;
  }

  private static float[] values(double[] targets, int[] picked) {
    float[] out = new float[picked.length];
    for (int j = 0; j < picked.length; j++) {
      out[j] = (float) targets[picked[j]];
    }
    return out;
  }

  private static long[] classes(int[] labels, int[] picked) {
    long[] out = new long[picked.length];
    for (int j = 0; j < picked.length; j++) {
      out[j] = labels[picked[j]];
    }
    return out;
  }

  private static int argmax(float[] row) {
    int best = 0;
    for (int j = 1; j < row.length; j++) {
      if (row[j] > row[best]) {
        best = j;
      }
    }
    return best;
  }
}
