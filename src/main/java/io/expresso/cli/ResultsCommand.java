package io.expresso.cli;

import io.expresso.report.DatasetTable;
import io.expresso.report.ReportFiles;
import io.expresso.report.ResultSummary;
import io.expresso.report.ResultTables;
import io.expresso.runtime.kafka.Aggregator;
import io.expresso.runtime.kafka.KafkaClients;
import io.expresso.runtime.kafka.Topics;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code expresso results}: the de-duplicated results of one experiment, as tables or JSON, plus report files. */
@Command(name = "results", mixinStandardHelpOptions = true,
    description = "Read expresso.results, de-duplicate by task id, and print the per-category table"
        + " (or JSON) of one experiment; optionally wait for N unique results and write report files.")
final class ResultsCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin KafkaOptions kafka = new KafkaOptions();

  @Option(names = "--experiment", required = true, paramLabel = "E", description = "experiment id")
  String experiment;

  @Option(names = "--wait", paramLabel = "N", description = "wait until N unique results arrived")
  Integer wait;

  @Option(names = "--timeout", paramLabel = "S", description = "give up waiting after S seconds (default: ${DEFAULT-VALUE});"
      + " what arrived by then is still printed and written, and the exit status is 1")
  int timeoutSeconds = 600;

  @Option(names = "--json", description = "print the JSON summary instead of tables")
  boolean json;

  @Option(names = "--out", paramLabel = "DIR", description = "also write <experiment>.results.jsonl, .summary.json, .report.md and .report.html to DIR")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (wait != null && wait < 0) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--wait " + wait + " is negative");
    }
    if (timeoutSeconds < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--timeout must be at least 1 second");
    }
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    KafkaClients clients = kafka.clients(spec);
    Topics.require(clients, List.of(Topics.RESULTS)); // a reader creates nothing
    List<io.expresso.proto.v1.Result> results;
    ResultSummary.DuplicateRecords duplicates;
    String incomplete = null;
    try (Aggregator a = new Aggregator(clients, experiment)) {
      if (wait != null) {
        boolean ok;
        try (Progress progress = new Progress(a, wait)) {
          a.addListener(r -> progress.tick());
          a.start();
          ok = a.awaitUnique(wait, timeout);
        }
        if (!ok) {
          // a long run cut short still shows what it has: the tables and files say how many arrived
          incomplete = "only " + a.uniqueCount() + " of " + wait + " unique results of experiment " + experiment
              + " arrived within " + timeoutSeconds + " s; the tables and files hold those";
        }
      } else {
        a.start();
        if (!a.awaitCaughtUp(timeout)) {
          throw new IllegalStateException("could not read " + Topics.RESULTS + " from " + clients.bootstrap() + " within " + timeoutSeconds + " s");
        }
      }
      results = a.results();
      duplicates = new ResultSummary.DuplicateRecords(a.duplicateRecords(), a.supersededSeen());
    }
    ResultSummary summary = new ResultSummary(experiment, results, duplicates);
    PrintWriter o = spec.commandLine().getOut();
    o.print(json ? summary.json() + System.lineSeparator() : ResultTables.render(summary));
    List<io.expresso.proto.v1.DatasetResult> datasets = results.stream().filter(r -> !r.hasError() && r.hasDataset())
        .map(io.expresso.proto.v1.Result::getDataset).toList();
    if (!json && !datasets.isEmpty()) {
      o.print(DatasetTable.render(datasets)); // dataset tasks: per run and mean ± std (docs/datasets.md)
    }
    o.flush();
    if (out != null) {
      for (Path p : ReportFiles.write(out, summary)) {
        System.err.println("wrote " + p);
      }
    }
    if (incomplete != null) {
      spec.commandLine().getErr().println("expresso results: " + incomplete);
      return 1;
    }
    return 0;
  }

  /**
   * The wait for results, on a progress bar ({@link ProgressBars}); closing it says what the
   * aggregator dropped. Close it on every path: an open bar keeps redrawing.
   */
  static final class Progress implements AutoCloseable {
    private final Aggregator aggregator;
    private final ProgressBar bar;

    Progress(Aggregator aggregator, int target) {
      this.aggregator = aggregator;
      this.bar = ProgressBars.start("results", target, new PrintWriter(System.err, true));
    }

    void tick() {
      ProgressBars.stepTo(bar, aggregator.uniqueCount(), "unique results");
    }

    @Override
    public void close() {
      tick();
      bar.close();
      System.err.println(aggregator.uniqueCount() + " unique results: " + aggregator.duplicatesSeen()
          + " duplicate records ignored, " + aggregator.supersededSeen()
          + " error results superseded by a later result");
    }
  }
}
