package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TaskHeader;
import io.expresso.proto.v1.Tasks;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One header for every task kind, reached one way. */
class TaskHeaderTest {

  @Test
  void everyTaskMessageInTasksIsAKindWithAHeader() {
    List<String> taskMessages = Tasks.getDescriptor().getMessageTypes().stream().map(Descriptor::getName)
        .filter(n -> n.endsWith("Task")).sorted().toList();
    List<String> kinds = Arrays.stream(TaskKind.values()).map(k -> k.descriptor().getName()).sorted().toList();
    assertThat(kinds).as("a *Task message without a TaskKind, or the other way round").isEqualTo(taskMessages);
  }

  @Test
  void theHeaderIsReachedTheSameWayForEveryKind() {
    TaskHeader h = TaskHeader.newBuilder().setTaskId("t").setExperimentId("e").setPublishedAtMs(5).setPublisher("p").build();
    assertThat(TaskKind.PAIR.header(PairTask.newBuilder().setHeader(h).build())).isEqualTo(h);
    assertThat(TaskKind.SYNTHETIC.header(SyntheticTask.newBuilder().setHeader(h).build())).isEqualTo(h);
    assertThat(TaskKind.PAIR.header(PairTask.getDefaultInstance())).isEqualTo(TaskHeader.getDefaultInstance());
  }
}
