package io.expresso.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.bench.BenchPaths.Run;
import io.expresso.report.Table;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The harness of {@code expresso bench}: throughput and latency of the runtime on no-op synthetic
 * tasks (broker → worker → results, through the share group), beside the raw producer → consumer rate and an
 * exactly-once relay of plain clients on the same embedded broker in the same run (see {@link
 * BenchPaths}), round after round, then the rates, latencies and CPU per task by stage as tables
 * or one JSON object. A benchmark, not a test: it measures and prints, including where the CPU went.
 */
public final class RuntimeBench {

  /**
   * {@code rounds} measured rounds of {@code count} tasks through each path after {@code warmup}
   * unmeasured ones; {@code workers} workers with {@code devices} each; {@code rate} tasks/s, or 0
   * to publish as fast as possible.
   */
  public record Settings(int count, int partitions, List<DeviceSlot> devices, int workers, int commitIntervalMs,
      int acquire, int rounds, int warmup, int rate, boolean json, boolean shareFloor) {

    public Settings(int count, int partitions, List<DeviceSlot> devices, int workers, int commitIntervalMs, int acquire,
        int rounds, int warmup, int rate, boolean json) {
      this(count, partitions, devices, workers, commitIntervalMs, acquire, rounds, warmup, rate, json, false);
    }
  }

  private static final int RAW = 0;
  private static final int RELAY = 1;
  private static final int RUNTIME = 2;
  private static final int SHARE_FLOOR = 3;

  private final int count;
  private final int partitions;
  private final List<DeviceSlot> ds;
  private final int workers;
  private final int commitIntervalMs;
  private final int acquire;
  private final int rounds;
  private final int warmup;
  private final int rate;
  private final boolean json;
  /** The paths measured each round: raw, relay, runtime, and with {@code --share-floor} the share-group floor. */
  private final String[] pathKeys;

  public RuntimeBench(Settings s) {
    this.count = s.count();
    this.partitions = s.partitions();
    this.ds = List.copyOf(s.devices());
    this.workers = s.workers();
    this.commitIntervalMs = s.commitIntervalMs();
    this.acquire = s.acquire();
    this.rounds = s.rounds();
    this.warmup = s.warmup();
    this.rate = s.rate();
    this.json = s.json();
    this.pathKeys = s.shareFloor() ? new String[] {"raw", "relay", "runtime", "share_floor"}
        : new String[] {"raw", "relay", "runtime"};
  }

  /** Runs every round on a fresh embedded broker and prints the results to {@code o}. */
  public void run(PrintWriter o) throws Exception {
    Duration commitInterval = Duration.ofMillis(commitIntervalMs);
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      KafkaClients b = broker.clients();
      Topics.create(b, Topics.Creation.singleNode(partitions, partitions));
      BenchPaths.createTopics(b, partitions);
      List<Run[]> results = new ArrayList<>();
      List<Worker> started = new ArrayList<>();
      ShareFloor floor = null;
      try {
        for (int i = 0; i < workers; i++) {
          // each its own actor system, share consumers and producer, in the one share group
          started.add(Worker.start(Worker.Settings.of(b, ds).withAcquire(acquire),
              EvaluatorRegistry.defaults(), TaskObserver.NONE));
        }
        System.err.println("bench: warm-up (" + warmup + " tasks through each path)...");
        BenchPaths.raw(b, "warmup", warmup, 0);
        BenchPaths.relay(b, "warmup", warmup, 0, commitInterval);
        BenchPaths.runtime(b, "warmup", warmup, 0);
        if (pathKeys.length > SHARE_FLOOR) {
          floor = new ShareFloor(b, ds.size() * workers); // one consumer per device slot, as the workers have
          floor.run(b, "warmup", warmup, 0);
        }
        for (int round = 1; round <= rounds; round++) {
          // the paths take turns on the same broker, so machine load hits all of them alike
          System.err.println("bench: round " + round + "/" + rounds + ": " + String.join(", ", pathKeys) + ", " + count
              + " tasks each...");
          Run[] paths = new Run[pathKeys.length];
          paths[RAW] = BenchPaths.raw(b, "raw" + round, count, rate);
          paths[RELAY] = BenchPaths.relay(b, "relay" + round, count, rate, commitInterval);
          paths[RUNTIME] = BenchPaths.runtime(b, "bench" + round, count, rate);
          if (floor != null) {
            paths[SHARE_FLOOR] = floor.run(b, "floor" + round, count, rate);
          }
          results.add(paths);
        }
      } finally {
        started.forEach(Worker::close);
        if (floor != null) {
          floor.close();
        }
      }
      print(results, ds, o);
    }
  }

  private void print(List<Run[]> results, List<DeviceSlot> ds, PrintWriter o) throws Exception {
    double ofRaw = median(results, r -> r[RUNTIME].rate() / r[RAW].rate());
    double ofRelay = median(results, r -> r[RUNTIME].rate() / r[RELAY].rate());
    double relayOfRaw = median(results, r -> r[RELAY].rate() / r[RAW].rate());
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode root = m.createObjectNode();
      ArrayNode arr = root.putArray("rounds");
      for (Run[] paths : results) {
        ObjectNode round = arr.addObject();
        for (int i = 0; i < paths.length; i++) {
          Run r = paths[i];
          ObjectNode n = round.putObject(pathKeys[i]).put("tasks", r.tasks()).put("seconds", r.seconds())
              .put("per_second", r.rate()).put("p50_ms", r.quantile(0.5)).put("p99_ms", r.quantile(0.99))
              .put("cpu_us_per_task", r.cpuMicrosPerTask());
          ObjectNode stages = n.putObject("cpu_us_per_task_by_stage");
          r.cpuByStage().forEach((stage, sec) -> stages.put(stage, 1e6 * sec / r.tasks()));
        }
        round.put("runtime_over_raw", paths[RUNTIME].rate() / paths[RAW].rate());
        round.put("runtime_over_relay", paths[RUNTIME].rate() / paths[RELAY].rate());
        if (paths.length > SHARE_FLOOR) {
          round.put("share_floor_over_raw", paths[SHARE_FLOOR].rate() / paths[RAW].rate());
        }
      }
      root.put("median_runtime_over_raw", ofRaw);
      root.put("median_runtime_over_relay", ofRelay);
      root.put("median_relay_over_raw", relayOfRaw);
      if (pathKeys.length > SHARE_FLOOR) {
        root.put("median_share_floor_over_raw", median(results, r -> r[SHARE_FLOOR].rate() / r[RAW].rate()));
      }
      root.put("devices", ds.toString());
      root.put("workers", workers);
      root.put("partitions", partitions);
      root.put("commit_interval_ms", commitIntervalMs);
      root.put("warmup", warmup);
      root.put("rate", rate);
      o.println(m.writeValueAsString(root));
    } else {
      Table t = new Table("round", "path", "tasks", "seconds", "per second", "p50 ms", "p99 ms", "CPU µs/task",
          "of raw");
      int round = 1;
      for (Run[] paths : results) {
        for (Run r : paths) {
          t.row(String.valueOf(round), r.path(), String.valueOf(r.tasks()), f(r.seconds(), 2), f(r.rate(), 0),
              f(r.quantile(0.5), 1), f(r.quantile(0.99), 1), f(r.cpuMicrosPerTask(), 1),
              r == paths[RAW] ? "" : f(100 * r.rate() / paths[RAW].rate(), 1) + "%");
        }
        round++;
      }
      o.print(t.render());
      o.println();
      o.print(stageTable(results).render());
      o.printf(Locale.ROOT, "median over %d rounds: runtime / raw = %.1f%%, relay / raw = %.1f%%, runtime / relay = %.1f%%"
          + " (%d partitions, %d worker%s with devices %s, commit every %d ms)%n", results.size(), 100 * ofRaw,
          100 * relayOfRaw, 100 * ofRelay, partitions, workers, workers == 1 ? "" : "s", ds, commitIntervalMs);
      if (pathKeys.length > SHARE_FLOOR) {
        o.printf(Locale.ROOT, "median share-group floor / raw = %.1f%%, runtime / share-group floor = %.1f%%%n",
            100 * median(results, r -> r[SHARE_FLOOR].rate() / r[RAW].rate()),
            100 * median(results, r -> r[RUNTIME].rate() / r[SHARE_FLOOR].rate()));
      }
      if (rate > 0) {
        o.printf(Locale.ROOT, "published at %d tasks/s: the rates only show whether a path kept up; the latencies are the"
            + " measurement%n", rate);
      }
    }
    o.flush();
  }

  private static double median(List<Run[]> results, java.util.function.ToDoubleFunction<Run[]> f) {
    double[] v = results.stream().mapToDouble(f).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  /** Where the CPU went: µs per task by pipeline stage, over all rounds, per path. */
  private Table stageTable(List<Run[]> results) {
    int paths = pathKeys.length;
    Map<String, double[]> sums = new LinkedHashMap<>();
    double[] tasks = new double[paths];
    double[] process = new double[paths];
    for (Run[] round : results) {
      for (int i = 0; i < paths; i++) {
        int path = i;
        tasks[i] += round[i].tasks();
        process[i] += round[i].cpuSeconds();
        round[i].cpuByStage().forEach((stage, sec) -> sums.computeIfAbsent(stage, k -> new double[paths])[path] += sec);
      }
    }
    String[] header = new String[paths + 1];
    header[0] = "CPU µs/task by stage";
    System.arraycopy(pathKeys, 0, header, 1, paths);
    Table t = new Table(header);
    double[] threads = new double[paths];
    sums.forEach((stage, sec) -> {
      t.row(perTask(stage, sec, tasks));
      for (int i = 0; i < paths; i++) {
        threads[i] += sec[i];
      }
    });
    t.row(perTask("all Java threads", threads, tasks));
    // GC and JIT threads are invisible to ThreadMXBean: they are what the process used beyond them
    double[] vm = new double[paths];
    Arrays.setAll(vm, i -> process[i] - threads[i]);
    t.row(perTask("GC, JIT, VM (process - threads)", vm, tasks));
    t.row(perTask("process", process, tasks));
    return t;
  }

  /** A stage-table row: the label, then µs per task for each path. */
  private static String[] perTask(String label, double[] seconds, double[] tasks) {
    String[] cells = new String[seconds.length + 1];
    cells[0] = label;
    for (int i = 0; i < seconds.length; i++) {
      cells[i + 1] = f(1e6 * seconds[i] / tasks[i], 1);
    }
    return cells;
  }

  private static String f(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }
}
