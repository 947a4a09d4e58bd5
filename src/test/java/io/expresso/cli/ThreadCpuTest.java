package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void threadNamesMapToThePipelineStages() {
    assertThat(ThreadCpu.stageOf("bench-publisher")).isEqualTo("publisher");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | producer-3")).isEqualTo("publisher");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | producer-expresso-worker-1a2b3c4d"))
        .isEqualTo("worker producer");
    assertThat(ThreadCpu.stageOf("data-plane-kafka-request-handler-5")).isEqualTo("broker");
    assertThat(ThreadCpu.stageOf("expresso-worker-expresso.dispatchers.cpu-1-7")).isEqualTo("worker devices");
    assertThat(ThreadCpu.stageOf("expresso-worker-pekko.kafka.default-dispatcher-12")).isEqualTo("worker source + stream");
    assertThat(ThreadCpu.stageOf("expresso-aggregator")).isEqualTo("end consumer");
    assertThat(ThreadCpu.stageOf("expresso-tasks-worker-1a2b3c4d")).isEqualTo("worker source + stream");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | worker-1a2b3c4d-results")).isEqualTo("worker producer");
    assertThat(ThreadCpu.stageOf("kafka-producer-network-thread | worker-1a2b3c4d-attempts")).isEqualTo("worker attempts");
    assertThat(ThreadCpu.stageOf("expresso-attempts-worker-1a2b3c4d")).isEqualTo("worker attempts");
    assertThat(ThreadCpu.stageOf("Finalizer")).isEqualTo("other");
  }

  @Test
  void aBusyThreadsCpuIsChargedToItsStage() throws Exception {
    ThreadCpu cpu = new ThreadCpu();
    Thread busy = new Thread(() -> {
      long end = System.nanoTime() + 200_000_000L;
      long x = 1;
      while (System.nanoTime() < end) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      if (x == 42) {
        System.out.print("");
      }
    }, "bench-publisher");
    busy.start();
    Thread.sleep(150); // sample while it is still alive: an ended thread's CPU is not visible
    Map<String, Double> s = cpu.secondsByStage();
    busy.join();
    assertThat(s).containsKeys("publisher", "broker", "worker devices", "other");
    assertThat(s.get("publisher")).as("CPU seconds of the spinning publisher thread").isGreaterThan(0.02);
    assertThat(s.values()).allSatisfy(v -> assertThat(v).isGreaterThanOrEqualTo(0.0));
  }
}
