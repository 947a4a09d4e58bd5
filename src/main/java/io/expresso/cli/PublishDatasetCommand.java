package io.expresso.cli;

import io.expresso.proto.v1.DatasetResult;
import io.expresso.proto.v1.DatasetTask;
import io.expresso.proto.v1.Result;
import io.expresso.report.DatasetReport;
import io.expresso.report.DatasetTable;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Publisher;
import io.expresso.runtime.kafka.Topics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code expresso publish dataset}: one dataset task per model × fold × seed to
 * {@code expresso.tasks.dataset}; with {@code --wait}, follows the experiment's results on a
 * progress bar and prints the table as {@code train-dataset} does.
 */
@Command(name = "dataset", mixinStandardHelpOptions = true,
    description = {"One dataset task per model x fold x seed: a graph classifier (class labels) or regressor (real"
        + " targets) trained on one fold under a benchmarking protocol. With --wait, waits for the results and prints"
        + " per-run accuracies or mean absolute errors and mean +- std.",
        "tu:DIR datasets are read from the worker's disk; their node labels are one-hot GIN inputs unless the spec"
        + " says node-labels=false. See docs/datasets.md."})
final class PublishDatasetCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @CommandLine.Mixin PublishCommand.Common common = new PublishCommand.Common();
  @CommandLine.Mixin DatasetOptions options = new DatasetOptions();

  @Option(names = "--wait", description = "wait for every task's result, then print the table")
  boolean wait;

  @Option(names = "--timeout", paramLabel = "S", defaultValue = "86400",
      description = "with --wait: give up after S seconds (default: ${DEFAULT-VALUE})")
  long timeoutSeconds;

  @Option(names = "--out", paramLabel = "DIR", description = "with --wait: also write EXPERIMENT.dataset.jsonl and"
      + " EXPERIMENT.dataset.txt to DIR")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<DatasetTask> tasks = options.tasks(spec, common.experiment);
    UsageChecks.range(spec, "--timeout", timeoutSeconds, 1, 30L * 86400);
    KafkaClients clients = common.connect(spec);
    Set<String> succeeded = common.alreadySucceeded(clients);
    int published = 0;
    try (Publisher p = new Publisher(clients)) {
      for (DatasetTask t : tasks) {
        if (!succeeded.contains(t.getHeader().getTaskId())) {
          p.send(t.getHeader().getTaskId(), t);
          published++;
        }
      }
      p.flush();
    }
    PrintWriter o = spec.commandLine().getOut();
    o.println("published " + published + " dataset tasks (" + options.dataset + ", " + tasks.size() + " model x fold x"
        + " seed runs) to " + Topics.TASKS + " for experiment " + common.experiment);
    PublishCommand.Common.printSkipped(o, tasks.size() - published);
    o.flush();
    if (!wait) {
      return 0;
    }
    Set<String> ids = new java.util.HashSet<>();
    tasks.forEach(t -> ids.add(t.getHeader().getTaskId()));
    List<DatasetResult> results = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    try (Aggregator a = new Aggregator(clients, common.experiment)) {
      boolean ok;
      try (ResultsCommand.Progress progress = new ResultsCommand.Progress(a, tasks.size())) {
        a.addListener(r -> progress.tick());
        a.start();
        ok = a.awaitUnique(tasks.size(), Duration.ofSeconds(timeoutSeconds));
      }
      if (!ok) {
        throw new IllegalStateException("only " + a.uniqueCount() + " of " + tasks.size() + " results of experiment "
            + common.experiment + " arrived within " + timeoutSeconds + " s");
      }
      for (Result r : a.results()) {
        if (!ids.contains(r.getTaskId())) {
          continue;
        }
        if (r.hasError()) {
          errors.add(r.getTaskId() + ": " + r.getError().getReason() + ": " + r.getError().getMessage());
        } else if (r.hasDataset()) {
          results.add(r.getDataset());
        }
      }
    }
    o.print(DatasetTable.render(results));
    errors.forEach(e -> o.println("error: " + e));
    o.flush();
    if (out != null) {
      for (Path p : DatasetReport.write(out, common.experiment, results)) {
        System.err.println("wrote " + p);
      }
    }
    return errors.isEmpty() ? 0 : 1;
  }
}
