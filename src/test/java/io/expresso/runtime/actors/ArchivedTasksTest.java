package io.expresso.runtime.actors;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Result;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskMessages;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.TaskProcessor;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ShareGroup;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A task whose last delivery ends unacknowledged is archived by the broker: before the share
 * group named a dead-letter topic, without a word (a task lost); now the broker writes its place
 * there and a worker's {@link ArchivedTasks} writes its error result and dead letter.
 */
class ArchivedTasksTest {

  @Test
  void aBrokerDeadLetterNamesItsTaskUnlessAWorkerRejectedIt() {
    ConsumerRecord<String, byte[]> gaveUp = deadLetter("Offset delivery count exceeded the threshold.");
    assertThat(ArchivedTasks.Place.of(gaveUp)).contains(new ArchivedTasks.Place(Topics.TASKS, 0, 41, 4));
    assertThat(ArchivedTasks.Place.of(deadLetter(ArchivedTasks.CLIENT_REJECT))).as("a worker's REJECT: its error result"
        + " is written").isEmpty();
    assertThat(ArchivedTasks.Place.of(new ConsumerRecord<>(Topics.BROKER_DEAD_LETTERS, 0, 0, null, new byte[0])))
        .as("no place named").isEmpty();
  }

  @Test
  @Integration
  void aTaskWhoseLastDeliveryEndsUnacknowledgedGetsAnErrorResult() throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.create(broker.clients(), Topics.Creation.singleNode(1, 1));
      // the broker's limit: 2 deliveries; heartbeats of a second, so the consumer is handed the partition at once
      ShareGroup.configure(broker.clients(), new ShareGroup.Settings(1, null, null, Duration.ofSeconds(1)));
      try (Publisher p = new Publisher(broker.clients())) {
        p.send("archived/0", TaskMessages.syntheticTask("archived", 0, 1));
        p.flush();
      }
      // two deliveries that end unacknowledged, as when a fetch's records never reach a worker and
      // its consumer closes: the broker archives the task at its limit
      Properties c = ShareGroup.consumerConfig(broker.clients(), ShareGroup.NAME, "lost", 1);
      try (KafkaShareConsumer<String, byte[]> lost = new KafkaShareConsumer<>(c, new StringDeserializer(),
          new ByteArrayDeserializer())) {
        lost.subscribe(List.of(Topics.TASKS));
        for (int delivery = 1; delivery <= 2; delivery++) {
          ConsumerRecord<String, byte[]> r = awaitOne(lost);
          assertThat(r.deliveryCount()).contains((short) delivery);
          lost.acknowledge(r, AcknowledgeType.RELEASE);
          lost.commitSync(Duration.ofSeconds(30));
        }
      }

      TaskProcessor processor = new TaskProcessor(EvaluatorRegistry.defaults(), "relay", TaskObserver.NONE);
      ArchivedTasks relay = new ArchivedTasks(broker.clients(), "relay", processor, new DeviceSlot("cpu", 0));
      relay.start();
      try {
        List<ConsumerRecord<String, byte[]>> results = awaitRecords(broker.bootstrap(), Topics.RESULTS, 1);
        Result r = Result.parseFrom(results.get(0).value());
        assertThat(r.getTaskId()).isEqualTo("archived/synthetic/0"); // the task header's id
        assertThat(r.getExperimentId()).isEqualTo("archived");
        assertThat(r.getError().getReason()).isEqualTo("poison");
        assertThat(r.getError().getMessage()).startsWith("poison: 2 deliveries: the broker gave up on the task");
        List<ConsumerRecord<String, byte[]>> dead = awaitRecords(broker.bootstrap(), Topics.DEAD_LETTERS, 1);
        assertThat(dead.get(0).key()).isEqualTo("archived/0");
      } finally {
        relay.close();
      }
    }
  }

  private static ConsumerRecord<String, byte[]> deadLetter(String cause) {
    ConsumerRecord<String, byte[]> r = new ConsumerRecord<>(Topics.BROKER_DEAD_LETTERS, 0, 7, null, new byte[0]);
    header(r, "__dlq.errors.topic", Topics.TASKS);
    header(r, "__dlq.errors.partition", "0");
    header(r, "__dlq.errors.offset", "41");
    header(r, "__dlq.errors.group", ShareGroup.NAME);
    header(r, "__dlq.errors.delivery.count", "4");
    header(r, "__dlq.errors.message", cause);
    return r;
  }

  private static void header(ConsumerRecord<?, ?> r, String name, String value) {
    r.headers().add(new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8)));
  }

  private static ConsumerRecord<String, byte[]> awaitOne(KafkaShareConsumer<String, byte[]> c) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofSeconds(1))) {
        return r;
      }
    }
    throw new AssertionError("no delivery of the task within 60 s");
  }

  private static List<ConsumerRecord<String, byte[]>> awaitRecords(String bootstrap, String topic, int n) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, byte[]>> got = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      c.assign(c.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList());
      c.seekToBeginning(c.assignment());
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (got.size() < n) {
        assertThat(System.nanoTime()).as("%s has %d of %d records: the archived task has no error result", topic,
            got.size(), n).isLessThan(deadline);
        c.poll(Duration.ofMillis(500)).forEach(got::add);
      }
    }
    return got;
  }
}
