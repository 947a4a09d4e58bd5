package io.expresso.runtime.actors;

import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskRecords;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Result;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** How the device pool deals queued tasks out: partitions in turn, chunks by cost, suspects alone. */
class DevicePoolQueuesTest {

  private static Job job(int partition, long offset) {
    return new Job(TaskRecords.of(TaskKind.SYNTHETIC, partition, offset, "k", new byte[0]), 0);
  }

  private static List<Long> offsets(List<Job> chunk) {
    return chunk.stream().map(j -> j.record().offset()).toList();
  }

  @Test
  void longTasksGoOneAtATimeWithPartitionsTakingTurns() {
    DevicePool.Queues q = new DevicePool.Queues(4, new CostModel(), 2); // unseen kind: assumed expensive
    for (int p = 0; p < 3; p++) {
      for (long o = 0; o < 2; o++) {
        q.add(job(p, 10 * p + o));
      }
    }
    List<Long> order = new ArrayList<>();
    for (List<Job> c; !(c = q.nextChunk()).isEmpty(); ) {
      assertThat(c).hasSize(1);
      order.add(c.get(0).record().offset());
    }
    assertThat(order).containsExactly(0L, 10L, 20L, 1L, 11L, 21L);
  }

  @Test
  void cheapTasksTravelManyToAChunkAndDroppedOnesAreSkipped() {
    CostModel costs = new CostModel();
    costs.onFinished(new DeviceSlot("cpu", 0), TaskKind.SYNTHETIC, Result.getDefaultInstance(), 10e-6); // 10 µs each
    DevicePool.Queues q = new DevicePool.Queues(1, costs, 2);
    List<Job> jobs = new ArrayList<>();
    for (long o = 0; o < 100; o++) {
      jobs.add(job(0, o));
      q.add(jobs.get((int) o));
    }
    jobs.get(0).drop();
    List<Job> first = q.nextChunk();
    assertThat(first).hasSize(DevicePool.MAX_CHUNK);
    assertThat(first.get(0).record().offset()).isEqualTo(1L);
    assertThat(q.nextChunk()).hasSize(100 - 1 - DevicePool.MAX_CHUNK);
  }

  @Test
  void aTaskStartedTwiceBeforeRunsAlone() {
    CostModel costs = new CostModel();
    costs.onFinished(new DeviceSlot("cpu", 0), TaskKind.SYNTHETIC, Result.getDefaultInstance(), 10e-6);
    DevicePool.Queues q = new DevicePool.Queues(1, costs, 2);
    q.add(job(0, 0));
    q.add(job(0, 1));
    q.add(new Job(TaskRecords.of(TaskKind.SYNTHETIC, 0, 2L, "k", new byte[0]), 2));
    q.add(job(0, 3));
    assertThat(offsets(q.nextChunk())).containsExactly(0L, 1L);
    assertThat(offsets(q.nextChunk())).containsExactly(2L);
    assertThat(offsets(q.nextChunk())).containsExactly(3L);
  }
}
