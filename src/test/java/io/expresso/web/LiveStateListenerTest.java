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
    assertThat(before.path("categories")).isEmpty();

    l.onSuperseded(error, success);
    JsonNode after = experiment(state);
    assertThat(after.path("results").asLong()).as("still one task").isEqualTo(1);
    assertThat(after.path("errors").asLong()).isZero();
    assertThat(after.path("kinds").path("pair").asLong()).isEqualTo(1);
    assertThat(after.path("categories").get(0).path("distinguished").asLong()).isEqualTo(1);
  }

  private static JsonNode experiment(LiveState state) throws Exception {
    return new ObjectMapper().readTree(state.json(System.currentTimeMillis())).path("experiments").get(0);
  }
}
