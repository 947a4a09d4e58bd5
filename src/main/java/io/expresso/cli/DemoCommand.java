package io.expresso.cli;

import io.expresso.runtime.TaskMessages;
import io.expresso.count.Pattern;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.report.ReportFiles;
import io.expresso.report.ResultSummary;
import io.expresso.report.ResultTables;
import io.expresso.report.RobustnessWriter;
import io.expresso.robust.fleet.KafkaExecutor;
import io.expresso.robust.RobustnessExperiment;
import io.expresso.robust.RobustnessReport;
import io.expresso.robust.Scale;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorProvider;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BuiltinSuite;
import io.expresso.suite.Suite;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import io.expresso.engine.NativeEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso demo}: the README's main job, everything embedded — a real Kafka broker, a
 * worker, the aggregator — running the built-in suite under 1-WL and 3-WL (and every GNN an
 * {@link EvaluatorProvider} offers for the demo), plus synthetic tasks; tables printed, report
 * files written.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run everything embedded (Kafka broker, worker, aggregator): the built-in suite under"
        + " 1-WL and 3-WL, a GNN (GIN) on one pair per category, plus synthetic tasks; print the tables"
        + " and write the report and JSONL to --out.")
final class DemoCommand implements Callable<Integer> {

  static final String EXPERIMENT = "demo";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--out", paramLabel = "DIR", description = "where to write the report files (default: ${DEFAULT-VALUE})")
  Path out = Path.of("expresso-out");

  @Option(names = "--synthetic", paramLabel = "N", description = "synthetic tasks besides the suite (default: ${DEFAULT-VALUE})")
  int synthetic = 200;

  @Option(names = "--work-ms", paramLabel = "T", description = "busy-work per synthetic task in ms (default: ${DEFAULT-VALUE})")
  int workMs = 5;

  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();

  @Option(names = "--devices", paramLabel = "D", description = "worker devices: auto (every GPU, 4 evaluations each; else a CPU device per core), cpu:N, gpu:0,..., gpu:0x4 (4 evaluations at once on GPU 0) (default: ${DEFAULT-VALUE})")
  String devices = "auto";

  @Option(names = "--gnn", paramLabel = "SPEC", description = "GNN model spec run on the first --gnn-pairs pairs of each"
      + " category, or 'none' (default: ${DEFAULT-VALUE})")
  String gnn = "gin";

  @Option(names = "--gnn-pairs", paramLabel = "K", description = "pairs per category for the GNN (training is costly; default: ${DEFAULT-VALUE})")
  int gnnPairs = 1;

  @Option(names = "--robustness", paramLabel = "SCALE", defaultValue = "tiny",
      description = "adversarial-robustness stage through the same broker and worker: tiny, small or off (default: ${DEFAULT-VALUE})")
  String robustness;

  @Option(names = "--timeout", paramLabel = "S", description = "give up after S seconds (default: ${DEFAULT-VALUE})")
  int timeoutSeconds = 900;

  @Override
  public Integer call() throws Exception {
    precision.apply(spec);
    List<DeviceSlot> ds = UsageChecks.devices(spec, devices);
    if (!List.of("tiny", "small", "off").contains(robustness)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--robustness must be tiny, small or off, got '" + robustness + "'");
    }
    if (synthetic < 0 || workMs < 0 || workMs > 60_000) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--synthetic must be >= 0 and --work-ms in 0..60000");
    }
    PrintWriter o = spec.commandLine().getOut();
    long t0 = System.nanoTime();
    if (gnnPairs < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--gnn-pairs must be >= 0");
    }
    List<String> methods = new ArrayList<>(List.of("1-wl", "3-wl"));
    Suite suite = BuiltinSuite.generate();
    List<PairTask> pairTasks = new ArrayList<>();
    RpcSettings rpc = RpcSettings.newBuilder().setQ(32).setAlpha(0.05).build();
    for (String m : methods) {
      pairTasks.addAll(TaskMessages.pairTasks(EXPERIMENT, suite, m, new long[] {0}, TrainingSettings.getDefaultInstance(), rpc));
    }
    // GNNs train a model per pair: a few pairs per category keep the demo within minutes
    List<String> gnns = new ArrayList<>();
    if (!gnn.equals("none") && gnnPairs > 0) {
      gnns.add(gnn);
    }
    for (EvaluatorProvider p : EvaluatorRegistry.providers()) {
      gnns.addAll(p.demoModels());
    }
    Suite gnnSuite = firstPairs(suite, gnnPairs);
    for (String m : gnns) {
      pairTasks.addAll(TaskMessages.pairTasks(EXPERIMENT, gnnSuite, m, new long[] {0}, TrainingSettings.getDefaultInstance(), rpc));
    }
    methods.addAll(gnns);
    int total = pairTasks.size() + synthetic;
    if (!gnns.isEmpty() || !robustness.equals("off")) {
      // PyTorch's native libraries load while the broker starts, not in the first training's time
      Thread engine = new Thread(() -> {
        try {
          NativeEngine.start();
        } catch (RuntimeException | LinkageError e) {
          // the first task that needs the engine starts it again and reports why it cannot
        }
      }, "demo-engine-start");
      engine.setDaemon(true);
      engine.start();
    }
    System.err.println("demo: starting an embedded Kafka broker (KRaft)...");
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, null)) {
      KafkaClients clients = broker.clients();
      Topics.create(clients, Topics.Creation.singleNode(8, Topics.DEFAULT_TASK_PARTITIONS));
      System.err.printf(Locale.ROOT, "demo: broker ready at %s; starting a worker on %s%n", broker.bootstrap(), ds);
      List<Result> results;
      RobustnessReport robustnessReport = null;
      FutureTask<RobustnessReport> robustnessStage = null;
      ResultSummary.DuplicateRecords duplicates;
      boolean complete;
      CompletableFuture<Worker> starting = startWorker(clients, ds);
      try (Aggregator aggregator = new Aggregator(clients, EXPERIMENT);
           Publisher publisher = new Publisher(clients);
           Worker worker = started(starting)) {
        // as a fleet that is already serving: tasks published now start at once instead of waiting for the join
        if (!worker.awaitJoined(Duration.ofSeconds(30))) {
          System.err.println("demo: the worker has not joined the share group within 30 s; publishing anyway");
        }
        try (ResultsCommand.Progress progress = new ResultsCommand.Progress(aggregator, total)) {
          aggregator.addListener(r -> progress.tick()).start();
          // the tiny tasks first: their publish-to-finish then measures the hand-off, not the GNN
          // trainings queued ahead of them
          for (int i = 0; i < synthetic; i++) {
            publisher.send(EXPERIMENT + "/synthetic/" + i, TaskMessages.syntheticTask(EXPERIMENT, i, workMs));
          }
          for (PairTask t : pairTasks) {
            publisher.send(t.getHeader().getTaskId(), t);
          }
          publisher.flush();
          System.err.printf(Locale.ROOT, "demo: published %d tasks (%d synthetic; built-in suite, %d pairs x 1-wl, 3-wl;"
              + " %s on %d pairs)%n", total, synthetic, suite.size(), gnns.isEmpty() ? "no GNN" : String.join(", ", gnns),
              gnnSuite.size());
          // the robustness stage runs beside the suite: between its waves (train, retrain heads,
          // attack) the devices would otherwise idle
          robustnessStage = robustness.equals("off") ? null : startRobustness(clients);
          complete = aggregator.awaitUnique(total, Duration.ofSeconds(timeoutSeconds));
        }
        results = aggregator.results();
        duplicates = new ResultSummary.DuplicateRecords(aggregator.duplicateRecords(), aggregator.supersededSeen());
        if (robustnessStage != null) {
          try {
            robustnessReport = robustnessStage.get();
          } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
          }
        }
      }
      // everything below reads results in memory: the broker stops meanwhile (about a second)
      Thread brokerStop = new Thread(broker::close, "demo-broker-stop");
      brokerStop.start();
      ResultSummary summary = new ResultSummary(EXPERIMENT, results, duplicates);
      o.print(ResultTables.render(summary));
      if (robustnessReport != null) {
        o.println();
        RobustnessWriter.print(robustnessReport, o);
        for (Path p : RobustnessWriter.write(robustnessReport, out.resolve("robustness"))) {
          System.err.println("demo: wrote " + p);
        }
      }
      o.printf(Locale.ROOT, "%neach task once: %d tasks published, %d unique results, %d duplicate result records,"
          + " %d duplicates in report%n", total, summary.uniqueResults(), duplicates.records(), summary.duplicatesInReport());
      o.flush();
      for (Path p : ReportFiles.write(out, summary)) {
        System.err.println("demo: wrote " + p);
      }
      brokerStop.join();
      System.err.printf(Locale.ROOT, "demo: done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      if (!complete) {
        throw new IllegalStateException("only " + summary.uniqueResults() + " of " + total + " results arrived within "
            + timeoutSeconds + " s");
      }
      if (summary.errors() > 0) {
        throw new IllegalStateException(summary.errors() + " tasks failed: " + summary.errorsByReason());
      }
    }
    return 0;
  }

  /**
   * The robustness study at the demo's scale, on a thread of its own through the same broker and worker.
   */
  private FutureTask<RobustnessReport> startRobustness(KafkaClients clients) {
    RobustnessExperiment exp = new RobustnessExperiment(
        EXPERIMENT + "-robustness-" + System.currentTimeMillis(), Scale.fromName(robustness),
        List.of("i2gnn"), List.of(Pattern.TRIANGLE), true);
    System.err.printf(Locale.ROOT, "demo: robustness stage (scale %s): %d train, %d head-retrain, %d attack tasks%n",
        robustness, exp.trainJobs().size(), exp.headJobs().size(), exp.attackJobs().size());
    KafkaExecutor ex = new KafkaExecutor(clients, exp.experimentId(), Duration.ofSeconds(timeoutSeconds));
    FutureTask<RobustnessReport> stage = new FutureTask<>(() -> {
      try (ex) {
        return exp.run(ex, line -> System.err.println("demo: robustness: " + line));
      }
    });
    Thread t = new Thread(stage, "demo-robustness");
    t.setDaemon(true);
    t.start();
    return stage;
  }

  /**
   * Starts the worker on a thread of its own, so that its actor system, group configs and cluster
   * check overlap the aggregator's and publisher's start.
   */
  private static CompletableFuture<Worker> startWorker(KafkaClients clients, List<DeviceSlot> ds) {
    CompletableFuture<Worker> starting = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        starting.complete(Worker.start(Worker.Settings.of(clients, ds), EvaluatorRegistry.defaults(), TaskObserver.NONE));
      } catch (Throwable e) {
        starting.completeExceptionally(e);
      }
    }, "demo-worker-start");
    t.setDaemon(true);
    t.start();
    return starting;
  }

  private static Worker started(CompletableFuture<Worker> starting) throws Exception {
    try {
      return starting.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /** The first {@code k} pairs of every category. */
  static Suite firstPairs(Suite suite, int k) {
    List<io.expresso.suite.Category> cats = new ArrayList<>();
    for (io.expresso.suite.Category c : suite.categories()) {
      if (k > 0) {
        cats.add(new io.expresso.suite.Category(c.name(), c.pairs().subList(0, Math.min(k, c.pairs().size()))));
      }
    }
    return new Suite(suite.id(), cats);
  }
}
