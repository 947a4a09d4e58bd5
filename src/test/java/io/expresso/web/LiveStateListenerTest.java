package io.expresso.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.Provenance;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import org.junit.jupiter.api.Test;

class LiveStateListenerTest {

  @Test
  void theLivePageShowsARetrysSuccessInPlaceOfTheError() throws Exception {
    LiveState state = new LiveState();
    LiveStateListener l = new LiveStateListener(state);
    Provenance.Builder prov = Provenance.newBuilder().setTaskKind("pair").setWorkerId("w").setDevice("cpu:0");
    Result error = Result.newBuilder().setExperimentId("e").setTaskId("e/3-wl/0/s0").setProvenance(prov)
        .setError(TaskError.newBuilder().setReason("exception")).build();
    Result success = Result.newBuilder().setExperimentId("e").setTaskId("e/3-wl/0/s0").setProvenance(prov)
        .setPair(PairResult.newBuilder().setSuiteId("builtin").setCategory("CFI").setMethod("3-wl")
            .setDistinguished(true).setReliable(true)).build();
    l.onResult(error);
    JsonNode before = experiment(state);
    assertThat(before.path("errors").asLong()).isEqualTo(1);
    assertThat(before.path("configurations")).isEmpty();

    l.onSuperseded(success);
    JsonNode after = experiment(state);
    assertThat(after.path("results").asLong()).as("still one task").isEqualTo(1);
    assertThat(after.path("errors").asLong()).isZero();
    assertThat(after.path("kinds").path("pair").asLong()).isEqualTo(1);
    assertThat(after.path("configurations").get(0).path("rows").get(0).path("distinguished").asLong()).isEqualTo(1);
  }

  @Test
  void aRunningTrainTaskShowsItsLatestEpochUntilItsResultArrives() throws Exception {
    LiveState state = new LiveState();
    LiveStateListener l = new LiveStateListener(state);
    io.expresso.proto.v1.TrainProgress.Builder p = io.expresso.proto.v1.TrainProgress.newBuilder()
        .setExperimentId("e").setTaskId("train:e/ppgn/triangle/sbm/s0").setModel("ppgn:layers=3").setPattern("triangle")
        .setDataset("sbm").setSeed(0).setMaxEpochs(60).setWorkerId("12@host");
    state.trainEpoch(p.setEpoch(1).setTrainL1(9).setValidationL1(8).setLearningRate(1e-3).build());
    state.trainEpoch(p.setEpoch(2).setTrainL1(6).setValidationL1(5.5).setLearningRate(5e-4).build());
    state.trainEpoch(p.setEpoch(1).setTrainL1(9).setValidationL1(8).setLearningRate(1e-3).build()); // late
    JsonNode row = experiment(state).path("training").get(0);
    assertThat(row.path("epoch").asInt()).isEqualTo(2);
    assertThat(row.path("max_epochs").asInt()).isEqualTo(60);
    assertThat(row.path("validation_l1").asDouble()).isEqualTo(5.5);
    assertThat(row.path("train_l1").asDouble()).isEqualTo(6.0);
    assertThat(row.path("learning_rate").asDouble()).isEqualTo(5e-4);
    assertThat(row.path("worker").asText()).isEqualTo("12@host");
    assertThat(row.path("dataset").asText()).isEqualTo("sbm");

    l.onResult(Result.newBuilder().setExperimentId("e").setTaskId("train:e/ppgn/triangle/sbm/s0")
        .setProvenance(Provenance.newBuilder().setTaskKind("train"))
        .setTrain(io.expresso.proto.v1.TrainResult.newBuilder().setEpochs(2)).build());
    assertThat(experiment(state).path("training")).as("done: no longer running").isEmpty();
    state.trainEpoch(p.setEpoch(3).build());
    assertThat(experiment(state).path("training")).as("a late epoch of a finished task stays out").isEmpty();
  }

  private static JsonNode experiment(LiveState state) throws Exception {
    return new ObjectMapper().readTree(state.json(System.currentTimeMillis())).path("experiments").get(0);
  }
}
