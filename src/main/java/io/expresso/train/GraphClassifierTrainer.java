package io.expresso.train;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph;
import io.expresso.model.GraphModel;
import io.expresso.model.LaplacianPe;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Trains a graph classifier under a {@link DatasetProtocol}: the model's output row is the class
 * logits (a {@link GraphModel} whose embedding size is the number of classes — GIN's sum of
 * per-layer linear read-outs, as in Xu et al. and Dwivedi et al.), softmax cross-entropy, Adam,
 * the rate decayed on the validation loss's plateau, stopped once it falls below the protocol's
 * floor or the wall-time cap is reached. As the reference code, the test accuracy is the final
 * model's (no best-epoch selection). Positional encodings, when the spec has them, get random
 * sign flips per batch and column in training (the reference code's per-batch flip).
 *
 * <p>Batch order and sign flips follow {@code seed} (SplitMix64); initial weights follow the
 * seed the model was created with. Cancellation is checked before every batch.
 */
public final class GraphClassifierTrainer {

  /** Why training ended. */
  public enum Stop { MIN_LEARNING_RATE, MAX_EPOCHS, MAX_TIME }

  /** One finished epoch. */
  public record Epoch(int epoch, double trainLoss, double validationLoss, double validationAccuracy, double learningRate) {}

  /**
   * A finished run; accuracies are fractions in [0, 1] and predictions are class indices, one per
   * graph of the given lists in their order.
   */
  public record Outcome(int epochs, double trainLoss, double validationLoss, double trainAccuracy,
      double validationAccuracy, double testAccuracy, int[] testPredictions, double finalLearningRate, Stop stop,
      double seconds) {}

  private GraphClassifierTrainer() {}

  public static Outcome train(GraphModel model, List<Graph> train, int[] trainLabels, List<Graph> validation,
      int[] validationLabels, List<Graph> test, int[] testLabels, DatasetProtocol p, long seed,
      BooleanSupplier cancelled, Consumer<Epoch> progress) {
    long start = System.nanoTime();
    // capped at a year so that start + cap cannot overflow
    long deadline = start + (long) (Math.min(p.maxHours(), 24 * 365) * 3600e9);
    // no floor in the schedule itself: the protocol stops once the rate is below its minimum
    PlateauSchedule schedule = new PlateauSchedule(p.learningRate(), p.decayFactor(), p.patience(), 0f);
    DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
        .optOptimizer(Optimizer.adam().optLearningRateTracker(schedule).build())
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
            throw new CancellationException("classifier training cancelled in epoch " + epoch + ", before the batch at graph "
                + from + " of " + n);
          }
          List<Graph> batch = new ArrayList<>();
          long[] y = new long[Math.min(p.batchSize(), n - from)];
          for (int j = 0; j < y.length; j++) {
            batch.add(train.get(order[from + j]));
            y[j] = trainLabels[order[from + j]];
          }
          float[] signs = k > 0 ? LaplacianPe.signs(k, rnd::nextLong) : null;
          JniUtils.setGradMode(true); // thread-local in PyTorch: enable it on this thread
          try (NDManager sub = trainer.getManager().newSubManager()) {
            NDList in = model.encode(sub, batch, signs);
            try (GradientCollector gc = trainer.newGradientCollector()) {
              NDList logits = trainer.forward(in);
              NDArray loss = trainer.getLoss().evaluate(new NDList(sub.create(y)), logits);
              float l = loss.getFloat();
              if (!Float.isFinite(l)) {
                throw new IllegalStateException("training diverged: non-finite loss in epoch " + epoch);
              }
              sum += l * y.length;
              gc.backward(loss);
            }
            trainer.step();
          }
        }
        trainLoss = sum / n;
        val = lossAndAccuracy(model, validation, validationLabels);
        schedule.afterEpoch(epoch, val[0]);
        if (progress != null) {
          progress.accept(new Epoch(epoch, trainLoss, val[0], val[1], rate));
        }
      }
    }
    int[] predictions = predict(model, test);
    return new Outcome(epoch, trainLoss, val[0], lossAndAccuracy(model, train, trainLabels)[1], val[1],
        accuracy(predictions, testLabels), predictions, schedule.rate(), stop, (System.nanoTime() - start) / 1e9);
  }

  /** Class predictions (argmax of the logits) in evaluation mode. */
  public static int[] predict(GraphModel model, List<Graph> graphs) {
    float[][] logits = model.embed(graphs);
    int[] out = new int[logits.length];
    for (int i = 0; i < logits.length; i++) {
      out[i] = argmax(logits[i]);
    }
    return out;
  }

  /** Mean cross-entropy and accuracy in evaluation mode. */
  static double[] lossAndAccuracy(GraphModel model, List<Graph> graphs, int[] labels) {
    float[][] logits = model.embed(graphs);
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
