package io.expresso.runtime.actors;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.TaskError;
import io.expresso.runtime.Cancellation;
import io.expresso.runtime.Outcome;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskRecords;
import java.util.List;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.junit.jupiter.api.Test;

/** How an ended task is acknowledged: the one decision between a task's outcome and the broker. */
class SettlementTest {

  private static final Outcome SUCCESS = new Outcome(Result.newBuilder().setTaskId("t").build(), List.of());
  private static final Outcome ERROR = new Outcome(Result.newBuilder().setTaskId("t")
      .setError(TaskError.newBuilder().setReason("exception")).build(), List.of());
  private static final Outcome HANDED_BACK = Outcome.handedBack(
      TaskRecords.of(TaskKind.SYNTHETIC, 0, 0L, "t", new byte[0]), Cancellation.Reason.STOPPING);

  @Test
  void aResultIsAcceptedAnErrorResultRejectedAndAHandBackReleased() {
    assertThat(TaskLoop.acknowledgement(SUCCESS, true)).isEqualTo(AcknowledgeType.ACCEPT);
    assertThat(TaskLoop.acknowledgement(ERROR, true)).isEqualTo(AcknowledgeType.REJECT);
    assertThat(TaskLoop.acknowledgement(HANDED_BACK, true)).isEqualTo(AcknowledgeType.RELEASE);
  }

  @Test
  void whenProducingFailedNothingIsAcknowledgedForGoodSoTheTaskRunsAgain() {
    assertThat(TaskLoop.acknowledgement(SUCCESS, false)).isEqualTo(AcknowledgeType.RELEASE);
    assertThat(TaskLoop.acknowledgement(ERROR, false)).isEqualTo(AcknowledgeType.RELEASE);
    assertThat(TaskLoop.acknowledgement(HANDED_BACK, false)).isEqualTo(AcknowledgeType.RELEASE);
  }
}
