package io.expresso.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.proto.v1.Result;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ShareGroup;
import io.expresso.runtime.kafka.Topics;
import io.expresso.testing.Integration;
import io.expresso.testing.KafkaCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet on a stock three-node Kafka cluster (separate {@code kafka.Kafka} processes, KRaft,
 * replication 3, min ISR 2, Kafka's default share assignor, no plugin): more workers than task
 * partitions, a join, a SIGTERM leave and a SIGKILLed worker, while the broker leading the share
 * group's state partition is SIGKILLed and restarted, then the task partition's leader too. Every
 * task ends with a result, every reader counts each once, and every worker that served throughout
 * ran tasks. The group's lock is the stock broker's minimum (15 s), so the killed worker's task
 * comes back within it; nothing else is shortened.
 *
 * <p>Tagged {@code cluster}, so the default build leaves it out (pom.xml's {@code
 * expresso.excludedGroups}; run it with {@code -Dexpresso.excludedGroups=none}): on a loaded machine one
 * task of 20 had no result 120 s after the task partition's leader came back, which may be a task the
 * broker archived after failovers counted deliveries the workers never saw (docs/results/stock-kafka-cluster.md).
 */
@Integration
@Tag("cluster")
@Timeout(300)
class ThreeNodeClusterTest {

  private static final int TASKS = 20;
  private static final int TASK_MS = 4_000;

  @TempDir Path dir;

  @Test
  void aFleetLosesNothingWhileWorkersComeAndGoAndBrokersDie() throws Exception {
    long began = System.nanoTime();
    try (KafkaCluster cluster = KafkaCluster.start(3, dir)) {
      String bootstrap = cluster.bootstrap();
      System.out.printf("cluster: 3 nodes up in %.1f s%n", (System.nanoTime() - began) / 1e9);
      KafkaClients clients = KafkaClients.of(bootstrap);
      Topics.create(clients, new Topics.Creation(2, Topics.DEFAULT_TASK_PARTITIONS, (short) 3, Topics.KEEP_FOREVER));
      ShareGroup.configure(clients, new ShareGroup.Settings(3, Duration.ofSeconds(15), null, null));
      System.out.printf("cluster: 3 nodes and topics up in %.1f s%n", (System.nanoTime() - began) / 1e9);

      List<WorkerProcess> fleet = new ArrayList<>();
      try {
        for (int i = 1; i <= 4; i++) {
          fleet.add(WorkerProcess.start(bootstrap, "w" + i, dir));
        }
        for (WorkerProcess w : fleet) {
          w.awaitServing();
        }
        int stateLeader = cluster.leaderOf(KafkaCluster.SHARE_STATE_TOPIC,
            cluster.shareStatePartition(Worker.GROUP, Topics.TASKS, 0));
        long published = System.nanoTime();
        try (Publisher p = new Publisher(clients)) {
          for (int i = 0; i < TASKS; i++) {
            p.send("cluster/synthetic/" + i, TaskMessages.syntheticTask("cluster", i, TASK_MS));
          }
          p.flush();
        }
        WorkerProcess joiner = WorkerProcess.start(bootstrap, "w5", dir); // a scale-up, serving in seconds
        fleet.add(joiner);
        Thread.sleep(1_000);
        cluster.kill(stateLeader); // the share coordinator of the task partition, mid-run
        phase("killed node " + stateLeader + " (share-state leader)", published);
        Thread.sleep(2_000);
        fleet.get(0).terminate(); // a scale-down
        fleet.get(1).kill(); // a crash: its task comes back when its lock expires
        joiner.awaitServing();
        phase("w5 joined", published);
        cluster.restart(stateLeader);
        phase("node " + stateLeader + " back", published);
        cluster.awaitFullIsr(Duration.ofSeconds(60));
        phase("every replica in sync", published);
        int taskLeader = cluster.leaderOf(Topics.TASKS, 0);
        cluster.kill(taskLeader); // the task partition's leader now
        phase("killed node " + taskLeader + " (task partition leader)", published);
        Thread.sleep(3_000);
        cluster.restart(taskLeader);
        phase("node " + taskLeader + " back", published);

        Map<String, List<Result>> results = awaitResults(bootstrap, TASKS, Duration.ofSeconds(120));
        double seconds = (System.nanoTime() - published) / 1e9;
        try (Aggregator reader = new Aggregator(clients, "cluster").start()) {
          assertThat(reader.awaitCaughtUp(Duration.ofSeconds(30))).isTrue();
          assertThat(reader.uniqueCount()).as("a reader counts every task once").isEqualTo(TASKS);
          assertThat(reader.results()).noneMatch(Result::hasError);
        }
        assertThat(fleet.get(0).awaitExit(Duration.ofSeconds(60))).as("w1's exit status after SIGTERM").isIn(0, 143);
        Map<String, Long> ranBy = results.values().stream().flatMap(List::stream)
            .collect(Collectors.groupingBy(r -> r.getProvenance().getWorkerId(), Collectors.counting()));
        int records = results.values().stream().mapToInt(List::size).sum();
        System.out.printf("cluster: %d tasks in %.1f s after the publish, %d result records (%d duplicates), by worker %s;"
            + " killed node %d (share-state leader), then node %d (task partition leader)%n", TASKS, seconds, records,
            records - TASKS, ranBy, stateLeader, taskLeader);
        assertThat(ranBy.keySet()).as("the workers that served throughout, and the joiner, all ran tasks (1 partition,"
            + " 4 workers at first, 5 with the joiner)").containsAll(Set.of("w3", "w4", "w5"));
        for (WorkerProcess w : fleet) {
          w.terminate();
        }
        for (WorkerProcess w : fleet) {
          w.awaitExit(Duration.ofSeconds(60)); // no child outlives the test
        }
      } finally {
        fleet.forEach(WorkerProcess::close);
      }
    }
  }

  private static void phase(String what, long since) {
    System.out.printf("cluster: %5.1f s %s%n", (System.nanoTime() - since) / 1e9, what);
  }

  /** Every result record of experiment {@code cluster} by task id (duplicates kept), once all tasks have one. */
  private static Map<String, List<Result>> awaitResults(String bootstrap, int tasks, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Map<String, List<Result>> out = new HashMap<>();
      for (ConsumerRecord<String, byte[]> rec : CommittedRecords.of(bootstrap, Topics.RESULTS)) {
        Result r = Result.parseFrom(rec.value());
        if (r.getExperimentId().equals("cluster")) {
          out.computeIfAbsent(r.getTaskId(), k -> new ArrayList<>()).add(r);
        }
      }
      if (out.size() >= tasks) {
        return out;
      }
      assertThat(System.nanoTime()).as("%d of %d tasks have a result", out.size(), tasks).isLessThan(deadline);
      Thread.sleep(1000);
    }
  }
}
