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
import java.nio.file.Files;
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
import org.junit.jupiter.api.io.CleanupMode;
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
 * <p>A task whose delivery limit runs out at a delivery no worker acknowledged is not lost: the
 * broker writes it to its dead-letter topic and a worker writes its error result ({@code
 * ArchivedTasks}), which fails the no-error check below with the task named. Bounds are generous
 * (a loaded 2-core machine: about 2.5 min; idle: about 1.3 min); a failure names the missing tasks
 * and shows the workers' warnings and the brokers' share-group warnings, and keeps the logs.
 * Tagged {@code cluster}: {@code -DexcludedGroups=cluster} leaves it out.
 */
@Integration
@Tag("cluster")
@Timeout(300)
class ThreeNodeClusterTest {

  private static final int TASKS = 20;
  private static final int TASK_MS = 4_000;
  /** From the last broker's return to the last result: a loaded machine took 40 s, an idle one 25 s. */
  private static final Duration RESULTS_WAIT = Duration.ofSeconds(150);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir; // a failure keeps the logs it names

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
        cluster.restart(stateLeader); // while w5 starts: on a loaded machine each takes half a minute
        phase("node " + stateLeader + " back", published);
        joiner.awaitServing();
        phase("w5 serving", published);
        cluster.awaitFullIsr(Duration.ofSeconds(60));
        phase("every replica in sync", published);
        int taskLeader = cluster.leaderOf(Topics.TASKS, 0);
        cluster.kill(taskLeader); // the task partition's leader now
        phase("killed node " + taskLeader + " (task partition leader)", published);
        Thread.sleep(3_000);
        cluster.restart(taskLeader);
        phase("node " + taskLeader + " back", published);

        Map<String, List<Result>> results = awaitResults(bootstrap, TASKS, RESULTS_WAIT, fleet, cluster);
        double seconds = (System.nanoTime() - published) / 1e9;
        phase("every task has a result", published);
        Set<String> ids = results.keySet();
        try (Aggregator report = new Aggregator(clients, "cluster").start();
            Aggregator live = new Aggregator(clients, "cluster").summariesOnly()) {
          Map<String, Integer> seenLive = new java.util.concurrent.ConcurrentHashMap<>();
          live.addListener(r -> seenLive.merge(r.getTaskId(), 1, Integer::sum)).start();
          assertThat(report.awaitCaughtUp(Duration.ofSeconds(60))).as("the report reader caught up").isTrue();
          assertThat(live.awaitCaughtUp(Duration.ofSeconds(60))).as("the live reader caught up").isTrue();
          assertThat(report.uniqueCount()).as("the report reader counts every task once").isEqualTo(TASKS);
          assertThat(report.results()).extracting(Result::getTaskId).as("the report reader's tasks")
              .containsExactlyInAnyOrderElementsOf(ids);
          assertThat(report.results().stream().filter(Result::hasError).map(r -> r.getTaskId() + ": "
              + r.getError().getMessage()).toList()).as("error results (a task given up on is one)").isEmpty();
          assertThat(live.uniqueCount()).as("the live (summaries-only) reader counts every task once").isEqualTo(TASKS);
          assertThat(seenLive).as("the live reader's listener saw each task once").hasSize(TASKS)
              .allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1));
        }
        phase("two readers count each task once", published);
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
        phase("every worker exited", published);
      } finally {
        fleet.forEach(WorkerProcess::close);
      }
    }
  }

  private static void phase(String what, long since) {
    System.out.printf("cluster: %5.1f s %s%n", (System.nanoTime() - since) / 1e9, what);
  }

  /**
   * Every result record of experiment {@code cluster} by task id (duplicates kept), once all tasks
   * have one; past {@code timeout}, a failure naming the tasks without one, with the workers'
   * warnings and the brokers' share-group warnings.
   */
  private static Map<String, List<Result>> awaitResults(String bootstrap, int tasks, Duration timeout,
      List<WorkerProcess> fleet, KafkaCluster cluster) throws Exception {
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
      if (System.nanoTime() > deadline) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
          String id = "cluster/synthetic/" + i;
          if (!out.containsKey(id)) {
            missing.add(id);
          }
        }
        StringBuilder why = new StringBuilder();
        for (WorkerProcess w : fleet) {
          why.append("\n--- ").append(w.id).append(w.alive() ? "" : " (exited)").append(": warnings\n")
              .append(lines(w.logText(), l -> l.contains(" WARN ") || l.contains(" ERROR ")));
        }
        for (int id = 1; id <= cluster.size(); id++) {
          why.append("\n--- node ").append(id).append(": share-group warnings\n")
              .append(lines(Files.exists(cluster.log(id)) ? Files.readString(cluster.log(id)) : "",
                  l -> l.contains("share") || l.contains("Share")));
        }
        throw new AssertionError(out.size() + " of " + tasks + " tasks have a result " + timeout.toSeconds()
            + " s after the last broker came back; none: " + missing + " (logs kept in " + cluster.log(1).getParent()
            + ")" + why);
      }
      Thread.sleep(1000);
    }
  }

  /** The last 30 lines of {@code text} that {@code keep} keeps. */
  private static String lines(String text, java.util.function.Predicate<String> keep) {
    List<String> kept = text.lines().filter(keep).toList();
    return String.join("\n", kept.subList(Math.max(0, kept.size() - 30), kept.size()));
  }
}
