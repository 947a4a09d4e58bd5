package io.expresso.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.runtime.Aggregator;
import io.expresso.runtime.Device;
import io.expresso.runtime.EmbeddedBroker;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.Publisher;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.Topics;
import io.expresso.runtime.Worker;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso bench}: throughput and latency of the runtime on no-op synthetic tasks (broker
 * → worker → results, exactly-once), beside the raw producer → consumer rate on the same
 * embedded broker in the same run. A benchmark, not a test: it measures and prints.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmark the runtime: no-op synthetic tasks through an embedded broker, a worker and"
        + " the aggregator (tasks/s, p50/p99 end-to-end latency) beside the raw producer->consumer rate"
        + " on the same broker in the same run.")
final class BenchCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--count", paramLabel = "N", description = "tasks per measured run (default: ${DEFAULT-VALUE})")
  int count = 20_000;

  @Option(names = "--partitions", paramLabel = "N", description = "partitions per topic (default: ${DEFAULT-VALUE})")
  int partitions = 8;

  @Option(names = "--devices", paramLabel = "D", description = "worker devices (default: ${DEFAULT-VALUE})")
  String devices = "cpu:2";

  @Option(names = "--commit-interval-ms", paramLabel = "MS", description = "transaction commit interval (default: ${DEFAULT-VALUE})")
  int commitIntervalMs = 100;

  @Option(names = "--rounds", paramLabel = "R", description = "alternating raw/runtime rounds; the median ratio is reported (default: ${DEFAULT-VALUE})")
  int rounds = 3;

  @Option(names = "--warmup", paramLabel = "N", description = "unmeasured tasks through each path first, so JIT"
      + " compilation and connection set-up stay out of the measured rounds (default: ${DEFAULT-VALUE})")
  int warmup = 20_000;

  @Option(names = "--json", description = "print one JSON object instead of a table")
  boolean json;

  /** One measured path. */
  record Run(String path, int tasks, double seconds, double[] latencyMs, double cpuSeconds,
      Map<String, Double> cpuByStage) {
    double rate() {
      return tasks / seconds;
    }

    /** Process CPU time (all threads: broker, clients, worker, aggregator) per task, in µs. */
    double cpuMicrosPerTask() {
      return 1e6 * cpuSeconds / tasks;
    }

    double quantile(double q) {
      double[] s = latencyMs.clone();
      Arrays.sort(s);
      return s[(int) Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
    }
  }

  @Override
  public Integer call() throws Exception {
    if (rounds < 1 || rounds > 20) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--rounds " + rounds + " outside 1..20");
    }
    if (count < 100 || count > 10_000_000) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--count " + count + " outside 100..10000000");
    }
    if (warmup < 100 || warmup > 10_000_000) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--warmup " + warmup + " outside 100..10000000");
    }
    List<Device> ds;
    try {
      ds = Device.parse(devices);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      Topics.ensure(broker.bootstrap(), partitions);
      String rawTopic = "expresso.bench.raw";
      createTopic(broker.bootstrap(), rawTopic, partitions);
      List<Run[]> results = new ArrayList<>();
      Worker.Settings settings = Worker.Settings.of(broker.bootstrap(), ds).withCommitInterval(Duration.ofMillis(commitIntervalMs));
      try (Worker w = Worker.start(settings, EvaluatorRegistry.defaults(), TaskObserver.NONE)) {
        System.err.println("bench: warm-up (raw and runtime, " + warmup + " each)...");
        raw(broker.bootstrap(), rawTopic, "warmup", warmup);
        runtime(broker.bootstrap(), "warmup", warmup);
        for (int round = 1; round <= rounds; round++) {
          // raw and runtime alternate on the same broker, so machine load hits both alike
          System.err.println("bench: round " + round + "/" + rounds + ": raw producer -> consumer, then runtime, "
              + count + " each...");
          Run raw = raw(broker.bootstrap(), rawTopic, "raw" + round, count);
          Run runtime = runtime(broker.bootstrap(), "bench" + round, count);
          results.add(new Run[] {raw, runtime});
        }
      }
      print(results, ds);
    }
    return 0;
  }

  private void print(List<Run[]> results, List<Device> ds) throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    double[] ratios = results.stream().mapToDouble(r -> r[1].rate() / r[0].rate()).sorted().toArray();
    double ratio = ratios[ratios.length / 2];
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode root = m.createObjectNode();
      com.fasterxml.jackson.databind.node.ArrayNode arr = root.putArray("rounds");
      for (Run[] pair : results) {
        ObjectNode round = arr.addObject();
        for (Run r : pair) {
          round.putObject(r.path()).put("tasks", r.tasks()).put("seconds", r.seconds()).put("per_second", r.rate())
              .put("p50_ms", r.quantile(0.5)).put("p99_ms", r.quantile(0.99))
              .put("cpu_us_per_task", r.cpuMicrosPerTask());
          ObjectNode stages = round.with(r.path()).putObject("cpu_us_per_task_by_stage");
          r.cpuByStage().forEach((stage, sec) -> stages.put(stage, 1e6 * sec / r.tasks()));
        }
        round.put("ratio", pair[1].rate() / pair[0].rate());
      }
      root.put("median_ratio", ratio);
      root.put("devices", ds.toString());
      root.put("partitions", partitions);
      root.put("commit_interval_ms", commitIntervalMs);
      root.put("warmup", warmup);
      o.println(m.writeValueAsString(root));
    } else {
      Table t = new Table("round", "path", "tasks", "seconds", "per second", "p50 ms", "p99 ms", "CPU µs/task",
          "runtime/raw");
      int round = 1;
      for (Run[] pair : results) {
        for (Run r : pair) {
          t.row(String.valueOf(round), r.path(), String.valueOf(r.tasks()), f(r.seconds(), 2), f(r.rate(), 0),
              f(r.quantile(0.5), 1), f(r.quantile(0.99), 1), f(r.cpuMicrosPerTask(), 1),
              r == pair[1] ? f(100 * pair[1].rate() / pair[0].rate(), 1) + "%" : "");
        }
        round++;
      }
      o.print(t.render());
      o.println();
      o.print(stageTable(results).render());
      o.printf(Locale.ROOT, "median runtime / raw = %.1f%% over %d rounds (%d partitions, devices %s, commit every %d ms)%n",
          100 * ratio, results.size(), partitions, ds, commitIntervalMs);
    }
    o.flush();
  }

  /** Where the CPU went: µs per task by pipeline stage, over all rounds, raw beside runtime. */
  private static Table stageTable(List<Run[]> results) {
    Map<String, double[]> sums = new java.util.LinkedHashMap<>();
    long[] tasks = new long[2];
    for (Run[] pair : results) {
      for (int i = 0; i < 2; i++) {
        int path = i;
        tasks[i] += pair[i].tasks();
        pair[i].cpuByStage().forEach((stage, sec) -> sums.computeIfAbsent(stage, k -> new double[2])[path] += sec);
      }
    }
    Table t = new Table("CPU µs/task by stage", "raw", "runtime");
    double[] total = new double[2];
    sums.forEach((stage, sec) -> {
      t.row(stage, f(1e6 * sec[0] / tasks[0], 1), f(1e6 * sec[1] / tasks[1], 1));
      total[0] += sec[0];
      total[1] += sec[1];
    });
    t.row("all Java threads", f(1e6 * total[0] / tasks[0], 1), f(1e6 * total[1] / tasks[1], 1));
    // GC and JIT threads are invisible to ThreadMXBean: they are what the process used beyond them
    double[] process = new double[2];
    for (Run[] pair : results) {
      process[0] += pair[0].cpuSeconds();
      process[1] += pair[1].cpuSeconds();
    }
    t.row("GC, JIT, VM (process - threads)", f(1e6 * (process[0] - total[0]) / tasks[0], 1),
        f(1e6 * (process[1] - total[1]) / tasks[1], 1));
    t.row("process", f(1e6 * process[0] / tasks[0], 1), f(1e6 * process[1] / tasks[1], 1));
    return t;
  }

  private static String f(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  /** Synthetic no-op tasks through worker and aggregator; latency = publish to aggregator receipt. */
  private static Run runtime(String bootstrap, String experiment, int n) throws Exception {
    double[] latency = new double[n];
    int[] k = {0};
    long[] lastNs = {0};
    try (Aggregator a = new Aggregator(bootstrap, experiment).fromNow();
         Publisher p = new Publisher(bootstrap)) {
      a.addListener(r -> {
        long now = nowNs();
        Result res = r;
        synchronized (k) {
          if (k[0] < n && res.hasSynthetic()) {
            latency[k[0]++] = (now - res.getSynthetic().getPublishedAtNanos()) / 1e6;
          }
          lastNs[0] = System.nanoTime();
        }
      }).start();
      Thread publisher = new Thread(() -> {
        for (int i = 0; i < n; i++) {
          p.send(TaskKind.SYNTHETIC, experiment + "/synthetic/" + i, Publisher.syntheticTask(experiment, i, 0));
        }
        p.flush();
      }, "bench-publisher");
      ThreadCpu stages = new ThreadCpu();
      long cpu0 = processCpuNanos();
      long start = System.nanoTime();
      publisher.start();
      boolean all = a.awaitUnique(n, Duration.ofMinutes(10));
      double cpu = (processCpuNanos() - cpu0) / 1e9;
      Map<String, Double> byStage = stages.secondsByStage();
      publisher.join();
      if (!all) {
        throw new IllegalStateException("only " + a.uniqueCount() + " of " + n + " results arrived");
      }
      synchronized (k) {
        return new Run("runtime (exactly-once)", n, (lastNs[0] - start) / 1e9, Arrays.copyOf(latency, k[0]), cpu,
            byStage);
      }
    }
  }

  /** The same records straight from a producer to a plain consumer. */
  private static Run raw(String bootstrap, String topic, String experiment, int n) throws Exception {
    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    cp.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    cp.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
    cp.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "20");
    double[] latency = new double[n];
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(cp, new StringDeserializer(), new ByteArrayDeserializer());
         Publisher p = new Publisher(bootstrap)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int attempt = 0; tps.isEmpty() && attempt < 100; attempt++) {
        for (PartitionInfo i : c.partitionsFor(topic)) {
          tps.add(new TopicPartition(topic, i.partition()));
        }
        if (tps.isEmpty()) {
          Thread.sleep(100); // a fresh topic's metadata takes a moment to propagate
        }
      }
      c.assign(tps);
      c.seekToEnd(tps);
      tps.forEach(c::position); // resolve the end now, before producing
      Thread producer = new Thread(() -> {
        for (int i = 0; i < n; i++) {
          SyntheticTask t = Publisher.syntheticTask(experiment, i, 0);
          p.sendRaw(topic, t.getTaskId(), t.toByteArray());
        }
        p.flush();
      }, "bench-raw-producer");
      // the consumer gets its own named thread, so the stage breakdown can tell it apart
      java.util.concurrent.FutureTask<Integer> consumer = new java.util.concurrent.FutureTask<>(() -> {
        int got = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (got < n && System.nanoTime() < deadline) {
          for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(100))) {
            long now = nowNs();
            SyntheticTask t = SyntheticTask.parseFrom(r.value());
            if (got < n) {
              latency[got++] = (now - t.getPublishedAtNanos()) / 1e6;
            }
          }
        }
        return got;
      });
      ThreadCpu stages = new ThreadCpu();
      long cpu0 = processCpuNanos();
      long start = System.nanoTime();
      Thread consuming = new Thread(consumer, "bench-raw-consumer");
      consuming.start();
      producer.start();
      int got = consumer.get();
      long end = System.nanoTime();
      double cpu = (processCpuNanos() - cpu0) / 1e9;
      Map<String, Double> byStage = stages.secondsByStage();
      producer.join();
      if (got < n) {
        throw new IllegalStateException("raw consumer got only " + got + " of " + n + " records");
      }
      return new Run("raw producer->consumer", n, (end - start) / 1e9, latency, cpu, byStage);
    }
  }

  /** CPU time of this whole process so far: broker, clients and worker all run in it. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static long nowNs() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  private static void createTopic(String bootstrap, String topic, int partitions) throws Exception {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (Admin admin = Admin.create(p)) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
    }
  }
}
