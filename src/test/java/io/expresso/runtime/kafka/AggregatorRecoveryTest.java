package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticResult;
import io.expresso.testing.Integration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The aggregator rides out a broker outage longer than its clients' timeouts, says so, and catches up. */
@Integration
class AggregatorRecoveryTest {

  private static void results(String bootstrap, String experiment, int from, int to) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      for (int i = from; i < to; i++) {
        Result r = Result.newBuilder().setExperimentId(experiment).setTaskId(experiment + "/" + i)
            .setSynthetic(SyntheticResult.newBuilder().setWorkMs(0)).build();
        producer.send(new ProducerRecord<>(Topics.RESULTS, r.getTaskId(), r.toByteArray()));
      }
      producer.flush();
    }
  }

  @Test
  @Timeout(180)
  void anOutageLongerThanTheClientTimeoutsIsReportedAndSurvived(@TempDir Path dir) throws Exception {
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, dir.resolve("kafka"))) {
      Topics.ensure(broker.bootstrap(), 2);
      results(broker.bootstrap(), "heal", 0, 50);
      try (Aggregator a = new Aggregator(broker.bootstrap(), "heal").start()) {
        assertThat(a.awaitUnique(50, Duration.ofSeconds(60))).isTrue();
        assertThat(a.healthy(Duration.ofSeconds(15))).isTrue();
        broker.stop();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (a.healthy(Duration.ofSeconds(15))) {
          assertThat(System.nanoTime()).as("the aggregator reports that it is behind").isLessThan(deadline);
          Thread.sleep(200);
        }
        assertThat(a.lastError()).isNotNull();
        Thread.sleep(15_000); // longer than the readers' 5 s request timeouts
        broker.restart();
        results(broker.bootstrap(), "heal", 50, 100);
        assertThat(a.awaitUnique(100, Duration.ofSeconds(90))).as("caught up after the outage").isTrue();
        deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!a.healthy(Duration.ofSeconds(15))) {
          assertThat(System.nanoTime()).as("the aggregator reports that it is current again").isLessThan(deadline);
          Thread.sleep(200);
        }
        assertThat(a.lastError()).isNull();
      }
    }
  }
}
