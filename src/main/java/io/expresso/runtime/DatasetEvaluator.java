package io.expresso.runtime;

import io.expresso.dataset.Copies;
import io.expresso.dataset.DatasetSpecs;
import io.expresso.dataset.Folds;
import io.expresso.dataset.GraphDataset;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphFormatException;
import io.expresso.iso.Leakage;
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
 * Dataset tasks: one fold × seed × model of a graph classifier under a {@link DatasetProtocol}. The
 * model's output size is the dataset's class count; a spec that names neither {@code budget} nor
 * {@code hidden} is sized to the protocol's budget. Besides the fold's accuracies the result carries
 * the test graphs with an isomorphic copy in the fold's training set, the classifier's accuracy on
 * them and on the rest, and the audit's peering predictor on them ({@link Copies}).
 */
public final class DatasetEvaluator implements Evaluator<DatasetTask> {

  @Override
  public boolean accepts(DatasetTask task) {
    return true;
  }

  @Override
  public boolean trainsWithDjl(DatasetTask task) {
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

  /** The task's model spec for a dataset of {@code classes} classes, sized by the protocol unless it says otherwise. */
  public static ModelSpec modelSpec(String text, int classes, DatasetProtocol protocol) {
    ModelSpec spec = ModelSpec.parse(text).withEmbedding(classes);
    String keys = text.toLowerCase(Locale.ROOT);
    boolean sizedByHand = keys.contains("hidden=") || keys.contains("budget=");
    if (!sizedByHand && protocol.budget() > 0) {
      spec = new ModelSpec(spec.architecture(), spec.layers(), spec.hidden(), classes, spec.radius(), spec.bnMomentum(),
          spec.pe(), protocol.budget(), spec.residual(), spec.learnEps());
    }
    return spec;
  }

  @Override
  public Result.Builder evaluate(DatasetTask task, Device device, BooleanSupplier cancelled) {
    String id = "dataset task " + task.getHeader().getTaskId();
    DatasetProtocol p;
    GraphDataset data;
    ModelSpec spec;
    Folds.Fold fold;
    try {
      p = protocol(task);
      data = DatasetSpecs.load(task.getDataset());
      spec = modelSpec(task.getModel(), data.classes(), p);
      fold = Folds.fold(data.labels(), data.classes(), task.getFolds() > 0 ? task.getFolds() : p.folds(), task.getFold(),
          task.getSplitSeed());
    } catch (IllegalArgumentException | IOException | GraphFormatException e) {
      throw new TaskFailure(TaskFailure.INVALID_TASK, id + ": " + e.getMessage(), e);
    }
    long start = System.nanoTime();
    try (GraphModel model = GraphModel.create(spec, Head.EMBEDDING, device.djl(), task.getSeed())) {
      GraphClassifierTrainer.Outcome o = GraphClassifierTrainer.train(model,
          graphs(data, fold.train()), labels(data, fold.train()),
          graphs(data, fold.validation()), labels(data, fold.validation()),
          graphs(data, fold.test()), labels(data, fold.test()), p, task.getSeed(), cancelled, null);
      Leakage.Report copies = Copies.of(data, fold.train(), fold.test());
      DatasetResult.Builder r = DatasetResult.newBuilder()
          .setTask(task)
          .setModel(model.spec().toText())
          .setParameters(model.parameterCount())
          .setProtocol(settings(p, task.getFolds() > 0 ? task.getFolds() : p.folds()))
          .setGraphs(data.size())
          .setClasses(data.classes())
          .setTrainGraphs(fold.train().length)
          .setValidationGraphs(fold.validation().length)
          .setTestGraphs(fold.test().length)
          .setEpochs(o.epochs())
          .setStop(o.stop().name().toLowerCase(Locale.ROOT).replace('_', '-'))
          .setFinalLearningRate(o.finalLearningRate())
          .setTrainLoss(o.trainLoss())
          .setTrainAccuracy(o.trainAccuracy())
          .setValidationAccuracy(o.validationAccuracy())
          .setTestAccuracy(o.testAccuracy())
          .setCopiedTestGraphs(copies.leakedTest().length)
          .setCopiedTestAccuracy(subsetAccuracy(data, fold.test(), o.testPredictions(), copies.leakedTest()))
          .setCleanTestAccuracy(subsetAccuracy(data, fold.test(), o.testPredictions(), copies.cleanTest()))
          .setPeeringAccuracy(copies.leakedTest().length == 0 ? Double.NaN
              : copies.peeringCorrect() / (double) copies.leakedTest().length)
          .setSeconds((System.nanoTime() - start) / 1e9);
      for (int i = 0; i < fold.test().length; i++) {
        r.addTestIndices(fold.test()[i]).addTestPredictions(o.testPredictions()[i]);
      }
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

  private static int indexOf(int[] sorted, int value) {
    int k = Arrays.binarySearch(sorted, value);
    if (k < 0) {
      throw new IllegalStateException("graph " + value + " is not a test graph");
    }
    return k;
  }

  private static List<Graph> graphs(GraphDataset data, int[] indices) {
    List<Graph> out = new ArrayList<>(indices.length);
    for (int i : indices) {
      out.add(data.graphs().get(i).graph());
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
