package io.expresso.cli;

import io.expresso.count.Pattern;
import io.expresso.metrics.Metrics;
import io.expresso.metrics.TaskMetricsObserver;
import io.expresso.model.RegressorSpec;
import io.expresso.report.RobustnessWriter;
import io.expresso.robust.fleet.KafkaExecutor;
import io.expresso.robust.RobustnessExperiment;
import io.expresso.robust.RobustnessReport;
import io.expresso.robust.Scale;
import io.expresso.robust.SearchGrid;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.EvaluatorRegistry;
import io.expresso.runtime.TaskObserver;
import io.expresso.runtime.actors.Worker;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.EmbeddedBroker;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import io.expresso.web.LiveService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code expresso experiment …}: multi-phase studies orchestrated through Kafka. */
@Command(name = "experiment", mixinStandardHelpOptions = true,
    description = "Run a multi-phase experiment through Kafka.",
    subcommands = {ExperimentCommand.Robustness.class, ExperimentBrecCommand.class})
final class ExperimentCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing experiment: robustness or brec");
  }

  @Command(name = "robustness", mixinStandardHelpOptions = true,
      description = {"Adversarial robustness of subgraph-counting GNNs (Campi et al.): train count "
          + "regressors, attack them in P, P^c and P^s at budgets 1/5/10/25%% of the mean edge count, "
          + "score transfer to the other seeds' models and the out-of-distribution errors, then write "
          + "the report (Markdown, JSON, PNG) — train and attack tasks go through Kafka to the workers.",
          "Scales: tiny (a demo in seconds, ER graphs), small (a 2-core laptop, within about an hour), paper (5,000 graphs, 5 seeds, all patterns; GPU workers)."})
  static final class Robustness implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();
    @CommandLine.Mixin TopicOptions topics = new TopicOptions();
    @CommandLine.Mixin PrecisionOption precision = new PrecisionOption();
    @CommandLine.Mixin StudySizeOptions sizes = new StudySizeOptions();
    @CommandLine.Mixin EmbeddedOptions embeddedRun = new EmbeddedOptions();

    @Option(names = "--devices", paramLabel = "D", defaultValue = "cpu:1",
        description = "devices of the embedded worker (default: ${DEFAULT-VALUE})")
    String devices;

    @Option(names = "--models", paramLabel = "M", split = RegressorSpec.LIST_SPLIT, defaultValue = "i2gnn",
        description = "model specs: i2gnn, ppgn, gin, ngnn-de with optional :key=value sizes, separated by ';' or ','"
            + " (a ',' before key=value continues the spec: ppgn:layers=3,hidden=16,i2gnn is two models);"
            + " repeatable (default: ${DEFAULT-VALUE})")
    List<String> models;

    @Option(names = "--patterns", paramLabel = "P", split = ",",
        converter = PatternConverter.class,
        description = "patterns, comma-separated: " + "triangle, 2-path, 4-clique, chordal-cycle, tailed-triangle, "
            + "3-star, 4-cycle, 3-path (default: all eight at scale paper, triangle otherwise)")
    List<Pattern> patterns;

    @Option(names = "--no-ood", description = "skip the out-of-distribution study")
    boolean noOod;

    @Option(names = "--search", description = "first train a small hyper-parameter grid (learning rate x batch x"
        + " width x depth, per scale; see docs/robustness.md) for every model x pattern and seed, then attack the"
        + " point with the best mean validation l1")
    boolean search;

    @Option(names = "--grid", paramLabel = "G", description = "search this grid instead of the scale's (implies --search):"
        + " key=v1,v2;… with keys lr, batch, width, depth; a key left out keeps the scale's values,"
        + " e.g. 'lr=1e-4,1e-3;batch=16,64;depth=3,5'")
    String grid;

    @Option(names = "--seeds", paramLabel = "K", defaultValue = "0",
        description = "seeds per model x pattern instead of the scale's (transfer needs 2)")
    int seeds;

    @Option(names = "--experiment", paramLabel = "E", description = "experiment id (default: robustness-<time>); an id that ran before resumes it: jobs that"
        + " already succeeded are not run again")
    String experiment;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "expresso-out/robustness",
        description = "report directory (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "3600",
        description = "give up on a phase after S seconds (default: ${DEFAULT-VALUE})")
    long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
      precision.apply(spec);
      Scale s;
      RobustnessExperiment exp;
      List<DeviceSlot> ds;
      try {
        s = sizes.scale();
        ds = DeviceSlot.parse(devices);
        String id = experiment != null ? experiment : "robustness-" + System.currentTimeMillis();
        SearchGrid searched = grid != null ? SearchGrid.parse(grid, SearchGrid.of(s)) : search ? SearchGrid.of(s) : null;
        exp = new RobustnessExperiment(id, s, models, patterns == null ? s.defaultPatterns() : patterns, !noOod,
            sizes.sizes(seeds), searched, java.util.Map.of());
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      embeddedRun.check(spec, kafka);
      RobustnessReport report;
      if (embeddedRun.embedded) {
        report = runEmbedded(exp, ds);
      } else {
        Topics.Creation creation = topics.creation(spec);
        KafkaClients clients = kafka.clients(spec);
        Topics.prepare(clients, creation, topics.create);
        report = run(exp, clients);
      }
      RobustnessWriter.print(report, spec.commandLine().getOut());
      for (Path p : RobustnessWriter.write(report, out)) {
        System.err.println("robustness: wrote " + p);
      }
      return 0;
    }

    private RobustnessReport runEmbedded(RobustnessExperiment exp, List<DeviceSlot> ds) throws Exception {
      System.err.println("robustness: starting an embedded Kafka broker (KRaft) and a worker on " + ds);
      try (EmbeddedBroker broker = EmbeddedBroker.start(0, null); Metrics metrics = new Metrics()) {
        Topics.create(broker.clients(), Topics.Creation.singleNode(4, Topics.DEFAULT_TASK_PARTITIONS));
        ds.forEach(d -> metrics.tasks().registerDevice(d));
        Integer port = embeddedRun.metricsPort;
        LiveService live = port == null ? null : LiveService.start(broker.clients(), "127.0.0.1", port,
            metrics);
        try (Aggregator aggregator = live == null ? null : live.aggregator().start();
            Worker w = Worker.start(Worker.Settings.of(broker.clients(), ds), EvaluatorRegistry.defaults(),
                live == null ? TaskObserver.NONE : new TaskMetricsObserver(metrics.tasks()))) {
          if (live != null) {
            System.err.println("robustness: live http://127.0.0.1:" + live.port() + "/ (metrics at /metrics)");
          }
          return run(exp, broker.clients());
        } finally {
          if (live != null) {
            live.close();
          }
        }
      }
    }

    private RobustnessReport run(RobustnessExperiment exp, KafkaClients clients) {
      Scale s = exp.scale();
      System.err.printf(Locale.ROOT, "robustness: %s at scale %s (%d graphs per dataset, %d seeds, at most %d epochs):"
          + " %s%d train, %d head-retrain, %d attack tasks%n", exp.experimentId(), s.cliName(), exp.datasetSize(),
          exp.seeds(), exp.maxEpochs(), exp.search() ? exp.searchJobs().size() + " search (then the selected point's), " : "",
          exp.trainJobs().size(), exp.headJobs().size(), exp.attackJobs().size());
      try (KafkaExecutor ex = new KafkaExecutor(clients, exp.experimentId(), Duration.ofSeconds(timeoutSeconds))) {
        return exp.run(ex, line -> System.err.println("robustness: " + line));
      }
    }
  }

}
