package io.expresso.runtime;

import io.expresso.dataset.Copies;
import io.expresso.dataset.DatasetSpecs;
import io.expresso.dataset.Folds;
import io.expresso.dataset.GraphDataset;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphFormatException;
import io.expresso.iso.Leakage;
import io.expresso.model.GraphBatch;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.ModelSpec;
import io.expresso.proto.v1.DatasetResult;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.proto.v1.ProtocolSettings;
import io.expresso.proto.v1.Result;
import io.expresso.train.DatasetProtocol;
import io.expresso.train.GraphClassifierTrainer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * Dataset tasks: one fold × seed × model of a graph classifier or regressor under a
 * {@link DatasetProtocol}. The model's output size is the dataset's class count, or 1 for a
 * regression dataset (real targets: L1 loss, plain shuffled k-fold, mean absolute errors); a spec
 * that names neither {@code budget} nor {@code hidden} is sized to the protocol's budget. A dataset
 * whose vertices carry labels feeds them to the model as one-hot columns (the spec gets
 * {@code node-labels=K}, K the dataset's distinct labels) unless its spec says
 * {@code node-labels=false}; a model that cannot read them is refused. Besides the fold's scores the
 * result carries the test graphs with an isomorphic copy in the fold's training set, the model's
 * score on them and on the rest, and the audit's peering predictor on them ({@link Copies}).
 */
public final class DatasetEvaluator implements Evaluator<DatasetTask> {

  @Override
  public boolean accepts(DatasetTask task) {
    return true;
  }

  @Override
  public String toString() {
    return "dataset-classifier";
  }

  /** The protocol of {@code task} with its caps applied. */
  public static DatasetProtocol protocol(DatasetTask task) {
    String name = task.getProtocol().isBlank() ? DatasetProtocol.BENCHMARKING_GNNS.name() : task.getProtocol();
    return DatasetProtocol.byName(name).withCaps(task.getMaxEpochs(), task.getMaxHours());
  }

  /** The task's model spec for a dataset of {@code classes} classes and no node-label inputs. */
  public static ModelSpec modelSpec(String text, int classes, DatasetProtocol protocol) {
    return modelSpec(text, classes, 0, protocol);
  }

  /**
   * The task's model spec: {@code outputs} columns (the class count, 1 for a regressor), {@code nodeLabels}
   * one-hot node-label inputs (0: none), sized by the protocol unless the text names a width or budget.
   *
   * @throws IllegalArgumentException for a bad spec, an architecture that reads no node labels when
   *     {@code nodeLabels > 0}, or a {@code node-labels=} in the text that differs from {@code nodeLabels}
   */
  public static ModelSpec modelSpec(String text, int outputs, int nodeLabels, DatasetProtocol protocol) {
    ModelSpec parsed = ModelSpec.parse(text);
    if (parsed.nodeLabels() != 0 && parsed.nodeLabels() != nodeLabels) {
      throw new IllegalArgumentException("model spec '" + text + "': node-labels is the dataset's, "
          + (nodeLabels == 0 ? "which feeds none" : nodeLabels + " distinct labels") + "; leave it out of the spec");
    }
    ModelSpec spec = parsed.withEmbedding(outputs);
    if (nodeLabels > 0) {
      try {
        spec = spec.withNodeLabels(nodeLabels);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the dataset's vertices carry " + nodeLabels + " distinct labels, which only"
            + " gin reads as inputs, not " + spec.architecture().cliName() + "; add ,node-labels=false to the dataset"
            + " spec (tu:DIR,node-labels=false) to train on structure alone", e);
      }
    }
    String keys = text.toLowerCase(Locale.ROOT);
    boolean sizedByHand = keys.contains("hidden=") || keys.contains("budget=");
    if (!sizedByHand && protocol.budget() > 0) {
      spec = spec.withBudget(protocol.budget());
    }
    return spec;
  }

  @Override
  public Result.Builder evaluate(DatasetTask task, DeviceSlot device, BooleanSupplier cancelled) {
    String id = "dataset task " + task.getHeader().getTaskId();
    DatasetProtocol p;
    GraphDataset data;
    ModelSpec spec;
    Folds.Fold fold;
    try {
      p = protocol(task);
      data = DatasetSpecs.load(task.getDataset());
      spec = modelSpec(task.getModel(), data.regression() ? 1 : data.classes(),
          data.usesNodeLabels() ? data.nodeLabelCount() : 0, p);
      fold = Folds.of(data, task.getFolds() > 0 ? task.getFolds() : p.folds(), task.getFold(), task.getSplitSeed());
    } catch (IllegalArgumentException | IOException | GraphFormatException e) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, id + ": " + e.getMessage(), e);
    }
    long start = System.nanoTime();
    try (GraphModel model = GraphModel.create(spec, Head.EMBEDDING, device.djl(), task.getSeed())) {
      GraphClassifierTrainer.Outcome o = GraphClassifierTrainer.train(model, examples(data, fold.train()),
          examples(data, fold.validation()), examples(data, fold.test()), p, task.getSeed(), cancelled, null);
      Copies.Measured copies = Copies.measure(data, fold.train(), fold.test());
      Leakage.Report leak = copies.report();
      DatasetResult.Builder r = DatasetResult.newBuilder()
          .setTask(task)
          .setTaskType(data.regression() ? "regression" : "classification")
          .setModel(model.spec().toText())
          .setParameters(model.parameterCount())
          .setProtocol(settings(p, task.getFolds() > 0 ? task.getFolds() : p.folds()))
          .setGraphs(data.size())
          .setClasses(data.classes())
          .setNodeLabels(data.nodeLabelCount())
          .setNodeLabelInputs(data.usesNodeLabels())
          .setTrainGraphs(fold.train().length)
          .setValidationGraphs(fold.validation().length)
          .setTestGraphs(fold.test().length)
          .setEpochs(o.epochs())
          .setStop(o.stop().name().toLowerCase(Locale.ROOT).replace('_', '-'))
          .setFinalLearningRate(o.finalLearningRate())
          .setTrainLoss(o.trainLoss())
          .setCopiedTestGraphs(leak.leakedTest().length);
      for (int i : fold.test()) {
        r.addTestIndices(i);
      }
      if (data.regression()) {
        double[] testTargets = targets(data, fold.test());
        r.setTrainMae(o.trainMae())
            .setValidationMae(o.validationMae())
            .setTestMae(o.testMae())
            .setMeanPredictorTestMae(meanPredictorMae(targets(data, fold.train()), testTargets))
            .setCopiedTestMae(subsetMae(data, fold.test(), o.testOutputs(), leak.leakedTest()))
            .setCleanTestMae(subsetMae(data, fold.test(), o.testOutputs(), leak.cleanTest()))
            .setPeeringMae(copies.peeringMae());
        for (double v : o.testOutputs()) {
          r.addTestOutputs(v);
        }
      } else {
        r.setTrainAccuracy(o.trainAccuracy())
            .setValidationAccuracy(o.validationAccuracy())
            .setTestAccuracy(o.testAccuracy())
            .setCopiedTestAccuracy(subsetAccuracy(data, fold.test(), o.testPredictions(), leak.leakedTest()))
            .setCleanTestAccuracy(subsetAccuracy(data, fold.test(), o.testPredictions(), leak.cleanTest()))
            .setPeeringAccuracy(leak.leakedTest().length == 0 ? Double.NaN
                : leak.peeringCorrect() / (double) leak.leakedTest().length);
        for (int c : o.testPredictions()) {
          r.addTestPredictions(c);
        }
      }
      r.setSeconds((System.nanoTime() - start) / 1e9);
      return Result.newBuilder().setDataset(r);
    } catch (IllegalArgumentException e) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, id + ": " + e.getMessage(), e);
    } catch (IllegalStateException e) {
      if (String.valueOf(e.getMessage()).startsWith("training diverged")) {
        throw new TaskFailure(TaskFailure.NAN, id + ": " + e.getMessage(), e);
      }
      throw e;
    }
  }

  /** The fold part's graphs, with node-label indices when models read them, and their classes or targets. */
  static GraphClassifierTrainer.Examples examples(GraphDataset data, int[] indices) {
    List<Graph> graphs = new ArrayList<>(indices.length);
    for (int i : indices) {
      graphs.add(data.graphs().get(i).graph());
    }
    GraphBatch batch = data.usesNodeLabels() ? GraphBatch.labelled(graphs, data.nodeLabelIndices(indices))
        : GraphBatch.of(graphs);
    return data.regression() ? GraphClassifierTrainer.Examples.targets(batch, targets(data, indices))
        : GraphClassifierTrainer.Examples.classes(batch, labels(data, indices));
  }

  /** The test MAE of always answering the mean of {@code train}. */
  static double meanPredictorMae(double[] train, double[] test) {
    double mean = Arrays.stream(train).average().orElse(Double.NaN);
    double[] constant = new double[test.length];
    Arrays.fill(constant, mean);
    return GraphClassifierTrainer.mae(constant, test);
  }

  static ProtocolSettings settings(DatasetProtocol p, int folds) {
    return ProtocolSettings.newBuilder().setName(p.name()).setLearningRate(p.learningRate())
        .setDecayFactor(p.decayFactor()).setPatience(p.patience()).setMinLearningRate(p.minLearningRate())
        .setBatchSize(p.batchSize()).setFolds(folds).setSeeds(p.seeds()).setBudget(p.budget()).setPeDim(p.peDim())
        .setMaxEpochs(p.maxEpochs()).setMaxHours(p.maxHours()).build();
  }

  /** Accuracy on the test graphs among {@code subset} (dataset indices); NaN for an empty subset. */
  private static double subsetAccuracy(GraphDataset data, int[] test, int[] predictions, int[] subset) {
    if (subset.length == 0) {
      return Double.NaN;
    }
    int correct = 0;
    for (int i : subset) {
      int pos = indexOf(test, i);
      correct += predictions[pos] == data.labels()[i] ? 1 : 0;
    }
    return correct / (double) subset.length;
  }

  /** MAE on the test graphs among {@code subset} (dataset indices); NaN for an empty subset. */
  private static double subsetMae(GraphDataset data, int[] test, double[] outputs, int[] subset) {
    if (subset.length == 0) {
      return Double.NaN;
    }
    double sum = 0;
    for (int i : subset) {
      sum += Math.abs(outputs[indexOf(test, i)] - data.targets()[i]);
    }
    return sum / subset.length;
  }

  private static int indexOf(int[] sorted, int value) {
    int k = Arrays.binarySearch(sorted, value);
    if (k < 0) {
      throw new IllegalStateException("graph " + value + " is not a test graph");
    }
    return k;
  }

  private static double[] targets(GraphDataset data, int[] indices) {
    double[] out = new double[indices.length];
    for (int k = 0; k < indices.length; k++) {
      out[k] = data.targets()[indices[k]];
    }
    return out;
  }

  private static int[] labels(GraphDataset data, int[] indices) {
    int[] out = new int[indices.length];
    for (int k = 0; k < indices.length; k++) {
      out[k] = data.labels()[indices[k]];
    }
    return out;
  }
}
