package io.expresso.cli;

import io.expresso.runtime.TaskMessages;
import io.expresso.model.GraphModel;
import io.expresso.model.Head;
import io.expresso.model.NetworkSpec;
import io.expresso.model.TorchScriptSpec;
import io.expresso.proto.v1.RpcSettings;
import io.expresso.proto.v1.SyntheticTask;
import io.expresso.proto.v1.TrainingSettings;
import io.expresso.train.PlateauSchedule;
import io.expresso.robust.fleet.KafkaModelStore;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import io.expresso.stats.Convention;
import io.expresso.stats.ThresholdRule;
import io.expresso.suite.Suite;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code expresso publish}: put tasks on Kafka. */
@Command(name = "publish", mixinStandardHelpOptions = true,
    description = "Publish tasks to Kafka for the workers.",
    subcommands = {PublishCommand.Brec.class, PublishCommand.Synthetic.class, PublishTrainCommand.class,
        PublishAttackCommand.class, PublishDatasetCommand.class})
final class PublishCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (brec, synthetic, train, attack or dataset)");
  }

  /** Options every publish subcommand takes. */
  static class Common {
    @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();
    @CommandLine.Mixin TopicOptions topics = new TopicOptions();

    @Option(names = "--experiment", required = true, paramLabel = "E", description = "experiment id (results are grouped by it)")
    String experiment;

    @Option(names = "--force", description = "publish every task, also those that already succeeded in this experiment"
        + " (by default they are skipped, so publishing an experiment again re-runs only its failed or missing tasks)")
    boolean force;

    /**
     * The cluster's clients, once its topics are there: creates the missing ones with
     * --create-topics, else fails naming them.
     */
    KafkaClients connect(CommandLine.Model.CommandSpec spec) {
      Topics.Creation creation = topics.creation(spec);
      KafkaClients clients = kafka.clients(spec);
      Topics.prepare(clients, creation, topics.create);
      return clients;
    }

    /**
     * Task ids of the experiment with a successful result in expresso.results (none with --force):
     * the tasks to skip. Call after {@link #connect}.
     */
    Set<String> alreadySucceeded(KafkaClients clients) {
      return force ? Set.of() : Aggregator.succeededTaskIds(clients, experiment, READ_RESULTS_TIMEOUT);
    }

    static void printSkipped(PrintWriter out, int skipped) {
      if (skipped > 0) {
        out.println("skipped " + skipped + " task" + (skipped == 1 ? "" : "s")
            + " that already succeeded; --force publishes them again");
      }
    }
  }

  /** How long a publisher may take to read expresso.results before it decides what to skip. */
  static final Duration READ_RESULTS_TIMEOUT = Duration.ofMinutes(10);

  @Command(name = "brec", mixinStandardHelpOptions = true,
      description = "One pair task per pair (and seed) of a suite, under a method or model.")
  static final class Brec implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin Common common = new Common();

    @CommandLine.Mixin SuiteOptions suiteOptions = new SuiteOptions();

    @Option(names = "--model", required = true, paramLabel = "M",
        description = "a non-GNN method (1-wl, 3-wl, 4-wl, spd-wl, s3, s4, n1, n2, m1), a GNN model spec, or"
            + " torchscript:FILE.pt[,options]: the module is checked here, stored once in " + Topics.MODELS
            + " under its SHA-256 and run by workers started with --allow-user-models")
    String model;

    @Option(names = "--seeds", paramLabel = "A-B", description = "seeds A..B, one task per pair and seed (default: 0)")
    String seeds = "0";

    @Option(names = "--epochs", paramLabel = "N", description = "GNN training epochs (default: model's own)")
    int epochs;

    @CommandLine.Mixin ScheduleOption scheduleOption = new ScheduleOption();

    @Option(names = "--q", paramLabel = "Q", description = "relabelings per graph for the RPC test (default: 32)")
    int q = 32;

    @Option(names = "--alpha", paramLabel = "A", description = "significance level of the T^2 test (default: 0.05);"
        + " under rapc it sets the within-graph groups m, the fewest with 1/(m+1) <= A")
    double alpha = 0.05;

    @CommandLine.Mixin ThresholdOption thresholdOption = new ThresholdOption();
    @CommandLine.Mixin ConventionOption conventionOption = new ConventionOption();

    @Override
    public Integer call() {
      long[] seedRange;
      try {
        seedRange = Ranges.parse("--seeds", seeds);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      // refused here, not by every worker: the same checks the worker makes
      ThresholdRule threshold = thresholdOption.rule(spec, alpha);
      Convention convention = conventionOption.convention(spec);
      PlateauSchedule.Settings schedule = scheduleOption.settings(spec);
      TorchScriptSpec module = null;
      if (NetworkSpec.isTorchScript(model)) {
        try {
          module = TorchScriptSpec.parse(model, TorchScriptSpec.files());
          checkLoads(module);
        } catch (IllegalArgumentException e) {
          throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
      }
      String method = module == null ? model : module.toText();
      Suite suite = suiteOptions.load(spec);
      long[] s = new long[(int) (seedRange[1] - seedRange[0] + 1)];
      for (int i = 0; i < s.length; i++) {
        s[i] = seedRange[0] + i;
      }
      TrainingSettings training = TrainingSettings.newBuilder().setEpochs(epochs)
          .setSchedule(schedule == null ? "" : schedule.text()).build();
      RpcSettings rpc = RpcSettings.newBuilder().setQ(q).setAlpha(alpha)
          .setThresholdMode(threshold == null ? "" : threshold.id()) // empty: each worker takes the model's own
          .setConvention(convention.id()).build();
      KafkaClients clients = common.connect(spec);
      PrintWriter o = spec.commandLine().getOut();
      if (module != null) {
        try (KafkaModelStore store = new KafkaModelStore(clients, "publish brec")) {
          o.println("stored TorchScript module " + store.putModule(module) + " (" + module.module().length + " bytes) in "
              + Topics.MODELS);
        }
      }
      Set<String> succeeded = common.alreadySucceeded(clients);
      int[] published = {0, 0}; // published, all
      try (Publisher p = new Publisher(clients)) {
        // streamed: each task is sent as it is built (a whole BREC file x 10 seeds would not fit)
        TaskMessages.forEachPairTask(common.experiment, suite, method, s, training, rpc, t -> {
          published[1]++;
          if (!succeeded.contains(t.getHeader().getTaskId())) {
            p.send(t.getHeader().getTaskId(), t);
            published[0]++;
          }
        });
        p.flush();
      }
      o.println("published " + published[0] + " pair tasks (" + suite.size() + " pairs x " + s.length + " seeds, "
          + method + ") to " + Topics.TASKS + " for experiment " + common.experiment);
      Common.printSkipped(o, published[1] - published[0]);
      o.flush();
      return 0;
    }
  }

  /** Loads the module once on the CPU, so that one that does not fit is refused before any task is sent. */
  static void checkLoads(TorchScriptSpec module) {
    try (GraphModel m = GraphModel.create(module, Head.EMBEDDING, ai.djl.Device.cpu(), 0L)) {
      m.embeddingWidth();
    }
  }

  @Command(name = "synthetic", mixinStandardHelpOptions = true,
      description = "Synthetic tasks that busy-work for --work-ms each (load and fault tests).")
  static final class Synthetic implements Callable<Integer> {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;
    @CommandLine.Mixin Common common = new Common();

    @Option(names = "--count", required = true, paramLabel = "N", description = "number of tasks")
    int count;

    @Option(names = "--work-ms", paramLabel = "T", description = "busy-work per task in ms (default: ${DEFAULT-VALUE})")
    int workMs = 0;

    @Option(names = "--fault", paramLabel = "F", description = "chaos testing: crash (halts the worker's JVM), oom (a real"
        + " OutOfMemoryError) or hang (works until cancelled) in every --every-th task; only workers started with"
        + " --allow-faults honour it, others answer with an error result")
    String fault;

    @Option(names = "--every", paramLabel = "K", description = "with --fault: tasks K-1, 2K-1, ... carry the fault (default: ${DEFAULT-VALUE})")
    int every = 1;

    @Override
    public Integer call() {
      UsageChecks.range(spec, "--count", count, 1, 100_000_000);
      UsageChecks.range(spec, "--work-ms", workMs, 0, 600_000);
      UsageChecks.range(spec, "--every", every, 1, 100_000_000);
      if (fault != null && !java.util.List.of("crash", "oom", "hang").contains(fault)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--fault must be crash, oom or hang, got '" + fault + "'");
      }
      KafkaClients clients = common.connect(spec);
      Set<String> succeeded = common.alreadySucceeded(clients);
      int published = 0;
      int faulty = 0;
      try (Publisher p = new Publisher(clients)) {
        for (int i = 0; i < count; i++) {
          String f = fault != null && i % every == every - 1 ? fault : "";
          SyntheticTask t = TaskMessages.syntheticTask(common.experiment, i, workMs, f);
          if (!succeeded.contains(t.getHeader().getTaskId())) {
            p.send(t.getHeader().getTaskId(), t);
            published++;
            faulty += f.isEmpty() ? 0 : 1;
          }
        }
        p.flush();
      }
      PrintWriter o = spec.commandLine().getOut();
      o.println("published " + published + " synthetic tasks (" + workMs + " ms each"
          + (faulty > 0 ? ", " + faulty + " with fault " + fault : "") + ") to "
          + Topics.TASKS + " for experiment " + common.experiment);
      Common.printSkipped(o, count - published);
      o.flush();
      return 0;
    }
  }
}
