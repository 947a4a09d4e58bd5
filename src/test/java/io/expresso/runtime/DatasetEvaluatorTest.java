package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.proto.v1.DatasetResult;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.proto.v1.TaskHeader;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

class DatasetEvaluatorTest {

  private static final Device CPU = new Device("cpu", 0);

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
}
