package io.expresso.runtime.kafka;

import io.expresso.runtime.TaskMessages;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.runtime.TaskKind;
import io.expresso.testing.Integration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The publisher on a real embedded broker: flush waits for every send and reports a failed one. */
@Integration
class PublisherTest {

  @Test
  void flushWaitsForEverySendAndReportsAFailedOne() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), 2);
      try (Publisher p = new Publisher(broker.bootstrap())) {
        for (int i = 0; i < 500; i++) {
          p.send("pub/synthetic/" + i, TaskMessages.syntheticTask("pub", i, 0));
        }
        p.flush();
        assertThat(endOffsetSum(broker.bootstrap(), Topics.TASKS)).isEqualTo(500);

        // larger than the producer's max.request.size (8 MiB): this send fails, flush says so
        p.sendRaw(TaskKind.SYNTHETIC.messageType(), "pub/too-large", new byte[9 << 20]);
        assertThatThrownBy(p::flush).isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("publishing failed: ").hasMessageContaining("max.request.size");
        // the failure is reported once; the publisher goes on serving
        p.send("pub/synthetic/500", TaskMessages.syntheticTask("pub", 500, 0));
        p.flush();
        assertThat(endOffsetSum(broker.bootstrap(), Topics.TASKS)).isEqualTo(501);
      }
    }
  }

  private static long endOffsetSum(String bootstrap, String topic) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(props)) {
      var spec = new java.util.HashMap<TopicPartition, OffsetSpec>();
      int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
      for (int partition = 0; partition < partitions; partition++) {
        spec.put(new TopicPartition(topic, partition), OffsetSpec.latest());
      }
      return admin.listOffsets(spec).all().get().values().stream().mapToLong(i -> i.offset()).sum();
    }
  }
}
