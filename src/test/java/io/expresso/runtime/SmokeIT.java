package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SmokeIT {
  @Test
  void smoke() throws Exception {
    long t0 = System.nanoTime();
    try (EmbeddedBroker b = EmbeddedBroker.start(0, null)) {
      System.err.println("broker up " + (System.nanoTime() - t0) / 1e9);
      Topics.ensure(b.bootstrap(), 8);
      System.err.println("topics " + (System.nanoTime() - t0) / 1e9);
      try (Worker w = Worker.start(Worker.Settings.of(b.bootstrap(), Device.parse("cpu:2")), EvaluatorRegistry.defaults(), TaskObserver.NONE);
           Aggregator a = new Aggregator(b.bootstrap(), "e1").start();
           Publisher p = new Publisher(b.bootstrap())) {
        for (int i = 0; i < 2000; i++) {
          p.send(TaskKind.SYNTHETIC, "e1/synthetic/" + i, Publisher.syntheticTask("e1", i, 0));
        }
        p.flush();
        System.err.println("published " + (System.nanoTime() - t0) / 1e9);
        boolean ok = a.awaitUnique(2000, Duration.ofSeconds(60));
        System.err.println("done " + ok + " " + a.uniqueCount() + " " + (System.nanoTime() - t0) / 1e9);
        assertThat(ok).isTrue();
        p.close(); System.err.println("pclosed " + (System.nanoTime() - t0) / 1e9);
        a.close(); System.err.println("aclosed " + (System.nanoTime() - t0) / 1e9);
        w.close(); System.err.println("wclosed " + (System.nanoTime() - t0) / 1e9);
      }
      System.err.println("closed " + (System.nanoTime() - t0) / 1e9);
    }
  }
}
