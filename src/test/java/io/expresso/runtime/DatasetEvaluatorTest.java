package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.count.SplitMix64;
import io.expresso.dataset.DatasetSpecs;
import io.expresso.dataset.Folds;
import io.expresso.dataset.GraphDataset;
import io.expresso.graph.LabeledGraph;
import io.expresso.graph.TuDataset;
import io.expresso.proto.v1.DatasetResult;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.suite.Constructions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetEvaluatorTest {

  private static final DeviceSlot CPU = new DeviceSlot("cpu", 0);

  private static DatasetTask.Builder task(String dataset, String model) {
    return DatasetTask.newBuilder().setHeader(TaskHeader.newBuilder().setExperimentId("t").setTaskId("t/1"))
        .setDataset(dataset).setModel(model).setProtocol("quick").setFold(1).setSeed(4);
  }

  /**
   * CSL without positional information: every graph is 4-regular, so GIN gives all 150 the same
   * logits and predicts one class for the whole (stratified) test fold: exactly 10 %.
   */
  @Test
  void ginWithoutEncodingsIsAtChanceOnCsl() throws Exception {
    DatasetResult r = new DatasetEvaluator().evaluate(task("csl", "gin:hidden=16,layers=2").setMaxEpochs(3).build(), CPU,
        () -> false).getDataset();
    assertThat(r.getTestAccuracy()).isEqualTo(0.1);
    assertThat(r.getTestGraphs()).isEqualTo(30);
    assertThat(r.getTestPredictionsList()).containsOnly(r.getTestPredictions(0));
    // every CSL test graph has 9 isomorphic copies in training: the peering predictor is perfect
    assertThat(r.getCopiedTestGraphs()).isEqualTo(30);
    assertThat(r.getPeeringAccuracy()).isEqualTo(1.0);
    assertThat(r.getModel()).isEqualTo("gin:layers=2,hidden=16,d=10,radius=1,bn-momentum=0.9");
    assertThat(r.getProtocol().getName()).isEqualTo("quick");
    assertThat(r.getProtocol().getMaxEpochs()).isEqualTo(3);
    assertThat(r.getEpochs()).isLessThanOrEqualTo(3);
    assertThat(r.getTask().getDataset()).isEqualTo("csl");
  }

  /** With Laplacian encodings the same GIN separates the classes well above chance after a short run. */
  @Test
  void ginWithEncodingsLearnsCsl() throws Exception {
    DatasetResult r = new DatasetEvaluator().evaluate(task("csl", "gin:hidden=32,layers=3,pe=8").setMaxEpochs(40).build(),
        CPU, () -> false).getDataset();
    assertThat(r.getTestAccuracy()).isGreaterThan(0.5);
    assertThat(r.getTrainAccuracy()).isGreaterThan(0.5);
  }

  @Test
  void aSpecWithoutWidthIsSizedToTheProtocolsBudget() throws Exception {
    DatasetResult r = new DatasetEvaluator().evaluate(task("csl", "gin:layers=2").setMaxEpochs(1).build(), CPU,
        () -> false).getDataset();
    assertThat(Math.abs(r.getParameters() - 20_000) / 20_000.0).isLessThan(0.05); // quick's budget
    assertThat(r.getModel()).contains("budget=20000");
  }

  @Test
  void badTasksAreInvalidNamingWhatAndWhere() {
    DatasetEvaluator e = new DatasetEvaluator();
    assertThatThrownBy(() -> e.evaluate(task("tu:/nonexistent/MUTAG", "gin").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class).hasMessageContaining("dataset task t/1").hasMessageContaining("MUTAG_A.txt")
        .extracting(t -> ((TaskFailure) t).reason()).isEqualTo(TaskFailure.INVALID_TASK);
    assertThatThrownBy(() -> e.evaluate(task("csl", "gin").setFold(7).build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class).hasMessageContaining("fold 7 is not in 0..4");
    assertThatThrownBy(() -> e.evaluate(task("csl", "gin").setProtocol("nope").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class).hasMessageContaining("unknown protocol 'nope'");
  }

  @Test
  void cancellationStopsTraining() {
    assertThatThrownBy(() -> new DatasetEvaluator().evaluate(task("csl", "gin:hidden=8").build(), CPU, () -> true))
        .isInstanceOf(CancellationException.class);
  }

  /**
   * A TU dataset whose class is decided by node labels alone: 200 copies of the 10-cycle (one
   * structure for every graph), each vertex labelled 1, 2 or 3 at random; class 1 when label 1 is
   * more frequent than label 2, class 0 when less (ties are drawn again), 100 graphs each.
   */
  static Path labelDecidedCycles(Path dir) throws Exception {
    SplitMix64 rnd = new SplitMix64(11);
    List<LabeledGraph> graphs = new ArrayList<>();
    int[] perClass = new int[2];
    while (graphs.size() < 200) {
      int[] labels = new int[10];
      int balance = 0;
      for (int v = 0; v < 10; v++) {
        labels[v] = 1 + rnd.nextInt(3);
        balance += labels[v] == 1 ? 1 : labels[v] == 2 ? -1 : 0;
      }
      int c = balance > 0 ? 1 : 0;
      if (balance == 0 || perClass[c] == 100) {
        continue;
      }
      perClass[c]++;
      graphs.add(new LabeledGraph(Constructions.cycle(10), labels, null, c));
    }
    TuDataset.write(dir.resolve("LABELS"), "LABELS", graphs);
    return dir.resolve("LABELS");
  }

  /** GIN reads the one-hot node labels by default and learns the class; without them it is at chance. */
  @Test
  void nodeLabelsAreGinInputsByDefaultAndCanBeTurnedOff(@TempDir Path dir) throws Exception {
    Path data = labelDecidedCycles(dir);
    DatasetEvaluator e = new DatasetEvaluator();
    DatasetResult with = e.evaluate(task("tu:" + data, "gin:layers=2,hidden=32").build(), CPU, () -> false).getDataset();
    assertThat(with.getNodeLabels()).isEqualTo(3);
    assertThat(with.getNodeLabelInputs()).isTrue();
    assertThat(with.getModel()).endsWith(",node-labels=3");
    assertThat(with.getTaskType()).isEqualTo("classification");
    assertThat(with.getTestAccuracy()).as("test accuracy with node labels").isGreaterThan(0.8);

    DatasetResult without = e.evaluate(task("tu:" + data + ",node-labels=false", "gin:layers=2,hidden=32").build(), CPU,
        () -> false).getDataset();
    assertThat(without.getNodeLabels()).isEqualTo(3);
    assertThat(without.getNodeLabelInputs()).isFalse();
    assertThat(without.getModel()).doesNotContain("node-labels");
    // every graph is the same 10-cycle: one output for all, so exactly the stratified fold's half
    assertThat(without.getTestAccuracy()).isEqualTo(0.5);
    assertThat(without.getTestPredictionsList()).containsOnly(without.getTestPredictions(0));
  }

  @Test
  void aModelThatReadsNoNodeLabelsIsRefusedOnALabelledDataset(@TempDir Path dir) throws Exception {
    Path data = labelDecidedCycles(dir);
    DatasetEvaluator e = new DatasetEvaluator();
    assertThatThrownBy(() -> e.evaluate(task("tu:" + data, "ppgn:layers=1,hidden=4").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class)
        .hasMessageContaining("3 distinct labels, which only gin reads as inputs, not ppgn")
        .hasMessageContaining("node-labels=false")
        .extracting(t -> ((TaskFailure) t).reason()).isEqualTo(TaskFailure.INVALID_TASK);
    assertThatThrownBy(() -> e.evaluate(task("tu:" + data, "gin:node-labels=5").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class).hasMessageContaining("node-labels is the dataset's, 3 distinct labels");
    // structure alone is what ppgn can train on
    DatasetResult r = e.evaluate(task("tu:" + data + ",node-labels=false", "ppgn:layers=1,hidden=4").setMaxEpochs(1)
        .build(), CPU, () -> false).getDataset();
    assertThat(r.getNodeLabelInputs()).isFalse();
  }

  /**
   * A regressor on triangle counts: L1 loss, one output, plain k-fold; its test error is well below
   * that of always answering the training mean (computed here from the same fold).
   */
  @Test
  void aRegressorOnTriangleCountsBeatsTheTrainingMean() throws Exception {
    DatasetResult r = new DatasetEvaluator().evaluate(task("regress", "gin:layers=3,hidden=32").build(), CPU,
        () -> false).getDataset();
    GraphDataset data = DatasetSpecs.load("regress");
    Folds.Fold fold = Folds.plain(data.size(), 5, 1, 0);
    double mean = Arrays.stream(fold.train()).mapToDouble(i -> data.targets()[i]).average().orElseThrow();
    double baseline = Arrays.stream(fold.test()).mapToDouble(i -> Math.abs(data.targets()[i] - mean)).average()
        .orElseThrow();
    assertThat(r.getTaskType()).isEqualTo("regression");
    assertThat(r.getClasses()).isZero();
    assertThat(r.getModel()).contains(",d=1,");
    assertThat(r.getTestIndicesList()).containsExactlyElementsOf(Arrays.stream(fold.test()).boxed().toList());
    assertThat(r.getTestOutputsCount()).isEqualTo(fold.test().length);
    assertThat(r.getTestPredictionsCount()).isZero();
    assertThat(r.getTestAccuracy()).isZero(); // unset: accuracies are not a regression's
    assertThat(r.getMeanPredictorTestMae()).isCloseTo(baseline, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(r.getTestMae()).as("test MAE against the training mean's " + baseline).isLessThan(0.5 * baseline);
    assertThat(r.getTrainMae()).isLessThan(0.5 * baseline);
    double recomputed = 0;
    for (int i = 0; i < fold.test().length; i++) {
      recomputed += Math.abs(r.getTestOutputs(i) - data.targets()[fold.test()[i]]);
    }
    assertThat(r.getTestMae()).isCloseTo(recomputed / fold.test().length, org.assertj.core.api.Assertions.within(1e-6));
    if (r.getCopiedTestGraphs() == 0) { // no test graph has an isomorphic copy in training: all are clean
      assertThat(r.getCopiedTestMae()).isNaN();
      assertThat(r.getPeeringMae()).isNaN();
      assertThat(r.getCleanTestMae()).isCloseTo(r.getTestMae(), org.assertj.core.api.Assertions.within(1e-9));
    }
  }

  /** Bad graph attributes are invalid tasks naming the file and the line. */
  @Test
  void badGraphAttributesAreInvalidNamingFileAndLine(@TempDir Path dir) throws Exception {
    GraphDataset regress = DatasetSpecs.load("regress");
    List<LabeledGraph> graphs = regress.graphs().subList(0, 20);
    double[] targets = Arrays.copyOf(regress.targets(), 20);
    Path tu = dir.resolve("TRI");
    TuDataset.write(tu, "TRI", graphs, targets);
    Path attributes = tu.resolve("TRI_graph_attributes.txt");
    List<String> lines = Files.readAllLines(attributes);
    DatasetEvaluator e = new DatasetEvaluator();

    Files.write(attributes, lines.subList(0, 19));
    assertThatThrownBy(() -> e.evaluate(task("tu:" + tu, "gin").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class).hasMessageContaining("TRI_graph_attributes.txt line 20: missing")
        .extracting(t -> ((TaskFailure) t).reason()).isEqualTo(TaskFailure.INVALID_TASK);

    List<String> bad = new ArrayList<>(lines);
    bad.set(6, "seven");
    Files.write(attributes, bad);
    assertThatThrownBy(() -> e.evaluate(task("tu:" + tu, "gin").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class)
        .hasMessageContaining("TRI_graph_attributes.txt line 7: expected a real number, found 'seven'");

    // labels and attributes disagree on the graph count
    List<LabeledGraph> labelled = new ArrayList<>();
    for (LabeledGraph g : graphs) {
      labelled.add(new LabeledGraph(g.graph(), null, null, 1));
    }
    TuDataset.write(tu, "TRI", labelled, targets);
    List<String> more = new ArrayList<>(lines);
    more.add("4.0");
    Files.write(attributes, more);
    assertThatThrownBy(() -> e.evaluate(task("tu:" + tu + ",target=attributes", "gin").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class)
        .hasMessageContaining("TRI_graph_attributes.txt line 21: one too many, 21 values for 20 graphs")
        .hasMessageContaining("TRI_graph_labels.txt has 20 lines");
    // and the other way round: the labels file is the one out of step
    Files.write(attributes, lines);
    Path labelFile = tu.resolve("TRI_graph_labels.txt");
    Files.write(labelFile, Files.readAllLines(labelFile).subList(0, 19));
    assertThatThrownBy(() -> e.evaluate(task("tu:" + tu + ",target=attributes", "gin").build(), CPU, () -> false))
        .isInstanceOf(TaskFailure.class)
        .hasMessageContaining("TRI_graph_labels.txt line 20: missing, 19 labels for 20 graphs");
  }
}
