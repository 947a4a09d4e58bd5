package io.expresso.cli;

import io.expresso.metrics.Metrics;
import io.expresso.metrics.TaskMetricsObserver;
import io.expresso.model.ModelSpec;
import io.expresso.model.NetworkSpec;
import io.expresso.model.RegressorSpec;
import io.expresso.model.TorchScriptSpec;
import io.expresso.proto.v1.Result;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.report.ReportFiles;
import io.expresso.report.ResultSummary;
import io.expresso.report.ResultTables;
import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskMessages;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.ResultMerge;
import io.expresso.runtime.kafka.Topics;
import io.expresso.suite.BrecPaperResults;
import io.expresso.suite.Suite;
import io.expresso.web.LiveService;
import io.expresso.wl.WlMethods;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso experiment brec}: BREC's leaderboard as one experiment. Models x pairs x seeds
 * go through the fleet as pair tasks, interleaved ({@link TaskMessages#forEachInterleavedPairTask})
 * so that every model is under way from the start; an experiment id that ran before publishes only
 * the tasks without a successful result. Then it follows the results until each task has one and
 * prints and writes the leaderboard beside BREC's Table 2, as {@code expresso results} does.
 */
@Command(name = "brec", mixinStandardHelpOptions = true,
    description = {"BREC's leaderboard as one experiment: every model (built in, an exact method, or your"
        + " TorchScript module) on the suite's pairs under every seed, through Kafka to the workers; then per"
        + " model its best seed by BREC's rule per category beside BREC's Table 2 (terminal, Markdown, HTML,"
        + " PNG).",
        "Tasks are published interleaved (chunks of pairs, each taken in turn by every seed and model), so every"
            + " model gets devices early. Run it again with the same --experiment to resume: only tasks without"
            + " a successful result are published."})
final class ExperimentBrecCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();
  @CommandLine.Mixin TopicOptions topics = new TopicOptions();
  @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();
  @CommandLine.Mixin EmbeddedOptions embeddedRun = new EmbeddedOptions();

  @CommandLine.Mixin SuiteOptions suiteOptions = new SuiteOptions();

  @Option(names = "--models", paramLabel = "M", split = RegressorSpec.LIST_SPLIT, splitSynopsisLabel = ";",
      description = "models, separated by ';' or ',' (a ',' before key=value continues a spec): built-in specs"
          + " (see 'expresso models'), exact methods (3-wl, spd-wl, ...) or torchscript:FILE.pt[,options] (stored"
          + " once in " + Topics.MODELS + "; workers need --allow-user-models); repeatable (default: every built-in"
          + " model BREC's Table 2 has a row for, at its defaults: all but gin)")
  List<String> models;

  @Option(names = "--seeds", paramLabel = "A-B", defaultValue = "0-9", description = "seeds A..B (default: ${DEFAULT-VALUE})")
  String seeds;

  @Option(names = "--epochs", paramLabel = "N", description = "GNN training epochs (default: each model's own, BREC's)")
  int epochs;

  @CommandLine.Mixin ThresholdOption thresholdOption = new ThresholdOption();

  @Option(names = "--chunk", paramLabel = "P", defaultValue = "1",
      description = "pairs per chunk of the publishing order: each chunk is taken in turn by every seed and model"
          + " (default: ${DEFAULT-VALUE})")
  int chunk;

  @Option(names = "--experiment", paramLabel = "E", description = "experiment id (default: brec-leaderboard-<time>);"
      + " an id that ran before resumes it: only tasks without a successful result are published")
  String experiment;

  @Option(names = "--publish-only", description = "publish and exit; follow with 'expresso results --experiment E"
      + " --wait N --out DIR' (N as printed)")
  boolean publishOnly;

  @Option(names = "--dir", paramLabel = "DIR", description = "with --embedded: keep the broker's logs in DIR, so that"
      + " a later run with the same DIR and --experiment resumes (default: a temporary directory, gone at exit)")
  Path dir;

  @Option(names = "--devices", paramLabel = "D", defaultValue = "auto",
      description = "devices of the embedded worker (default: ${DEFAULT-VALUE})")
  String devices;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "expresso-out/leaderboard",
      description = "report directory: <experiment>.report.md, .report.html, .accuracy.png, .summary.json,"
          + " .results.jsonl (default: ${DEFAULT-VALUE})")
  Path out;

  @Option(names = "--timeout", paramLabel = "S", defaultValue = "86400",
      description = "stop waiting after S seconds; what arrived is still printed and written, exit status 1"
          + " (default: ${DEFAULT-VALUE})")
  long timeoutSeconds;

  /** What one run publishes: the experiment, its methods (as tasks name them), the suite and seeds. */
  record Plan(String experiment, List<String> methods, List<TorchScriptSpec> modules, Suite suite, long[] seeds,
      int chunk, TrainingSettings training, RpcSettings rpc) {

    long tasks() {
      return (long) methods.size() * suite.size() * seeds.length;
    }
  }

  @Override
  public Integer call() throws Exception {
    precision.apply(spec);
    Plan plan = plan();
    embeddedRun.check(spec, kafka);
    if (embeddedRun.embedded && publishOnly) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--publish-only needs a cluster (--bootstrap):"
          + " the embedded broker ends with this process");
    }
    if (dir != null && !embeddedRun.embedded) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--dir is the embedded broker's: give it with --embedded");
    }
    if (!embeddedRun.embedded) {
      Topics.Creation creation = topics.creation(spec);
      KafkaClients clients = kafka.clients(spec);
      Topics.prepare(clients, creation, topics.create);
      return run(plan, clients, null);
    }
    List<DeviceSlot> ds = UsageChecks.devices(spec, devices);
    System.err.println("leaderboard: starting an embedded Kafka broker (KRaft) and a worker on " + ds);
    try (EmbeddedBroker broker = EmbeddedBroker.start(0, dir); Metrics metrics = new Metrics()) {
      Topics.create(broker.clients(), Topics.Creation.singleNode(4, Topics.DEFAULT_TASK_PARTITIONS));
      ds.forEach(d -> metrics.tasks().registerDevice(d));
      Integer port = embeddedRun.metricsPort;
      LiveService live = port == null ? null : LiveService.start(broker.clients(), "127.0.0.1", port,
          metrics);
      EvaluatorRegistry registry = EvaluatorRegistry.defaults();
      try (Aggregator liveResults = live == null ? null : live.aggregator().start();
          Worker w = Worker.start(Worker.Settings.of(broker.clients(), ds),
              plan.modules().isEmpty() ? registry : registry.allowUserModules(),
              live == null ? TaskObserver.NONE : new TaskMetricsObserver(metrics.tasks()))) {
        if (live != null) {
          System.err.println("leaderboard: live http://127.0.0.1:" + live.port() + "/ (metrics at /metrics)");
        }
        return run(plan, broker.clients(), live);
      } finally {
        if (live != null) {
          live.close();
        }
      }
    }
  }

  /** The options as a plan; bad usage is a one-line error naming the option. */
  private Plan plan() {
    long[] seedRange;
    try {
      seedRange = Ranges.parse("--seeds", seeds);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    UsageChecks.range(spec, "--chunk", chunk, 1, 100_000);
    UsageChecks.range(spec, "--epochs", epochs, 0, 100_000);
    io.expresso.stats.ThresholdRule threshold = thresholdOption.rule(spec, 0.05); // refused here, not by every worker
    String thresholdMode = threshold == null ? "" : threshold.id();
    List<String> methods = new ArrayList<>();
    List<TorchScriptSpec> modules = new ArrayList<>();
    for (String m : models != null ? models : BrecPaperResults.leaderboardModels()) {
      String text = m.strip();
      try {
        if (NetworkSpec.isTorchScript(text)) {
          TorchScriptSpec module = TorchScriptSpec.parse(text, TorchScriptSpec.files());
          PublishCommand.checkLoads(module);
          modules.add(module);
          text = module.toText();
        } else if (!WlMethods.names().contains(text.toLowerCase(Locale.ROOT))) {
          ModelSpec.parse(text); // refused here, not by every worker
        }
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--models " + m + ": " + e.getMessage());
      }
      if (methods.contains(text)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--models names " + text + " twice");
      }
      methods.add(text);
    }
    if (methods.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--models names no model");
    }
    Suite suite = suiteOptions.load(spec);
    long[] s = new long[(int) (seedRange[1] - seedRange[0] + 1)];
    for (int i = 0; i < s.length; i++) {
      s[i] = seedRange[0] + i;
    }
    String id = experiment != null ? experiment : "brec-leaderboard-" + System.currentTimeMillis();
    TrainingSettings training = TrainingSettings.newBuilder().setEpochs(epochs).build();
    // the defaults of publish brec: q 32, alpha 0.05, each model's BREC threshold unless --threshold (threshold_mode
    // empty: RPC's 72.34, DropGNN's given 5), BREC's T² scaling
    RpcSettings rpc = RpcSettings.newBuilder().setQ(32).setAlpha(0.05).setThresholdMode(thresholdMode).setConvention("brec")
        .build();
    return new Plan(id, List.copyOf(methods), List.copyOf(modules), suite, s, chunk, training, rpc);
  }

  private int run(Plan plan, KafkaClients clients, LiveService live) throws Exception {
    PrintWriter o = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!plan.modules().isEmpty()) {
      try (KafkaModelStore store = new KafkaModelStore(clients, "experiment brec")) {
        for (TorchScriptSpec module : plan.modules()) {
          o.println("stored TorchScript module " + store.putModule(module) + " (" + module.module().length
              + " bytes) in " + Topics.MODELS);
        }
      }
    }
    if (live != null) {
      live.state().expect(plan.experiment(), plan.tasks());
    }
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    try (Aggregator results = new Aggregator(clients, plan.experiment())) {
      Waiting waiting = new Waiting();
      results.start();
      if (!results.awaitCaughtUp(PublishCommand.READ_RESULTS_TIMEOUT)) {
        throw new IllegalStateException("could not read " + Topics.RESULTS + " on " + clients.bootstrap()
            + " to its end within " + PublishCommand.READ_RESULTS_TIMEOUT.toSeconds() + " s");
      }
      long published = publish(plan, clients, results, waiting);
      o.printf(Locale.ROOT, "published %d pair tasks (%d models x %d pairs x %d seeds, interleaved in chunks of %d"
              + " pairs) to %s for experiment %s%n", published, plan.methods().size(), plan.suite().size(),
          plan.seeds().length, plan.chunk(), Topics.TASKS, plan.experiment());
      PublishCommand.Common.printSkipped(o, (int) (plan.tasks() - published));
      o.flush();
      if (publishOnly) {
        o.println("follow with: expresso results --experiment " + plan.experiment() + " --wait " + plan.tasks()
            + " --out DIR");
        o.flush();
        return 0;
      }
      boolean complete;
      try (ProgressBarWait bar = new ProgressBarWait(published)) {
        complete = waiting.await(results, timeout, bar);
      }
      List<Result> kept = results.results();
      ResultSummary summary = new ResultSummary(plan.experiment(), kept,
          new ResultSummary.DuplicateRecords(results.duplicateRecords(), results.supersededSeen()));
      o.print(ResultTables.render(summary));
      o.flush();
      for (Path p : ReportFiles.write(out, summary)) {
        System.err.println("leaderboard: wrote " + p);
      }
      if (!complete) {
        err.println("expresso experiment brec: " + waiting.left() + " of " + published + " published tasks of "
            + plan.experiment() + " had no result within " + timeoutSeconds + " s; the tables and files hold what"
            + " arrived; run again with --experiment " + plan.experiment() + " to resume");
        return 1;
      }
      return 0;
    }
  }

  /**
   * Publishes the plan's tasks that have no successful result yet, in the interleaved order, and
   * hands {@code waiting} each one published (the old error of a task published again is
   * superseded by its new result, which is what it waits for). Returns how many were published.
   */
  static long publish(Plan plan, KafkaClients clients, Aggregator results, Waiting waiting) {
    Set<String> succeeded = results.succeededTaskIds(); // a snapshot: one decode per result, not per task
    long[] published = {0};
    try (Publisher p = new Publisher(clients)) {
      TaskMessages.forEachInterleavedPairTask(plan.experiment(), plan.suite(), plan.methods(), plan.seeds(),
          plan.chunk(), plan.training(), plan.rpc(), t -> {
            String id = t.getHeader().getTaskId();
            if (!succeeded.contains(id)) {
              waiting.expect(id, results.result(id).orElse(null));
              p.send(id, t);
              published[0]++;
            }
          });
      p.flush();
    }
    return published[0];
  }

  /**
   * The published tasks still without an answer: a task is answered once the experiment holds a
   * result for it other than the error it had when it was published again (polled, so a result
   * that arrives between the publisher's look and its send is not missed).
   */
  static final class Waiting {
    /** Task id -> the error result it had when published, or null. */
    private final java.util.Map<String, Result> left = new java.util.LinkedHashMap<>();

    void expect(String taskId, Result before) {
      left.put(taskId, before != null && !ResultMerge.succeeded(before) ? before : null);
    }

    int left() {
      return left.size();
    }

    /** Waits until every published task is answered or the time is up; true if all were. */
    boolean await(Aggregator results, Duration timeout, ProgressBarWait bar) throws InterruptedException {
      long end = System.nanoTime() + timeout.toNanos();
      while (true) {
        left.entrySet().removeIf(e -> results.result(e.getKey()).filter(r -> !r.equals(e.getValue())).isPresent());
        bar.tick(left.size());
        if (left.isEmpty()) {
          return true;
        }
        if (System.nanoTime() > end) {
          return false;
        }
        Thread.sleep(500);
      }
    }
  }

  /** The wait on a progress bar (stderr), closed on every path. */
  static final class ProgressBarWait implements AutoCloseable {
    private final me.tongfei.progressbar.ProgressBar bar;
    private final long total;

    ProgressBarWait(long total) {
      this.total = total;
      this.bar = ProgressBars.start("leaderboard", total, new PrintWriter(System.err, true));
    }

    void tick(long left) {
      ProgressBars.stepTo(bar, total - left, "tasks answered");
    }

    @Override
    public void close() {
      bar.close();
    }
  }
}
