package io.expresso.cli;

import io.expresso.bench.FleetBench;
import io.expresso.bench.FleetBench.RunReport;
import io.expresso.runtime.kafka.Topics;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code expresso bench fleet}: long tasks on an elastic fleet. Starts an embedded broker, two
 * workers as child JVMs ({@code expresso worker --devices cpu:1}), publishes long synthetic tasks,
 * starts a third worker at {@code --join-at} and stops the first with SIGTERM at {@code
 * --leave-at}, and measures the wall time from the publish to the last result against the ideal
 * (the work divided by the devices available over time), the hand-overs, and the device time
 * spent on work that left no committed result (from each worker's /metrics and the results'
 * provenance). A benchmark, not a test: it measures and reports, whatever it finds. The harness is
 * {@link FleetBench}; this command reads its options and writes what it reports.
 */
@Command(name = "fleet", mixinStandardHelpOptions = true,
    description = "Benchmark long tasks on an elastic fleet: 2 workers (child JVMs, cpu:1 each), --tasks synthetic tasks of"
        + " --work-ms each, a third worker joins at --join-at and the first leaves by SIGTERM at --leave-at; reports wall"
        + " time versus the ideal (work / devices available over time), the hand-overs and the wasted device time.")
final class BenchFleetCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--tasks", paramLabel = "N", description = "synthetic tasks to publish (default: ${DEFAULT-VALUE})")
  int tasks = 24;

  @Option(names = "--work-ms", paramLabel = "MS", description = "busy-work per task, wall-clock ms (default: ${DEFAULT-VALUE})")
  int workMs = 10_000;

  @Option(names = "--join-at", paramLabel = "T", description = "start the third worker this long after the publish"
      + " (default: ${DEFAULT-VALUE})")
  String joinAt = "20s";

  @Option(names = "--leave-at", paramLabel = "T", description = "send SIGTERM to the first worker this long after the"
      + " publish (default: ${DEFAULT-VALUE})")
  String leaveAt = "40s";

  @Option(names = "--partitions", paramLabel = "N", description = "partitions of the task topic where the benchmark"
      + " creates it (default: ${DEFAULT-VALUE}, as deployed)")
  int partitions = Topics.DEFAULT_TASK_PARTITIONS;

  @Option(names = "--bootstrap", paramLabel = "B", description = "run on this existing plaintext cluster (topics created"
      + " where missing, each run a new experiment) instead of an embedded broker per run")
  String bootstrap;

  @Option(names = "--stop-grace", paramLabel = "T", description = "workers' --stop-grace (default: the worker's own)")
  String stopGrace;

  @Option(names = "--runs", paramLabel = "R", description = "runs of the scenario, each on a fresh broker and fresh"
      + " workers (default: ${DEFAULT-VALUE})")
  int runs = 1;

  @Option(names = "--timeout", paramLabel = "T", description = "give a run up this long after the publish if results are"
      + " still missing (default: ${DEFAULT-VALUE})")
  String timeout = "10m";

  @Option(names = "--logs", paramLabel = "DIR", description = "keep the workers' logs (stamped with the benchmark clock)"
      + " here (default: a new temporary directory, printed)")
  Path logs;

  @Option(names = "--markdown", paramLabel = "FILE", description = "also write the report as Markdown to FILE")
  Path markdown;

  @Override
  public Integer call() throws Exception {
    UsageChecks.range(spec, "--tasks", tasks, 1, 10_000);
    UsageChecks.range(spec, "--work-ms", workMs, 0, 600_000);
    UsageChecks.range(spec, "--partitions", partitions, 1, 1024);
    UsageChecks.range(spec, "--runs", runs, 1, 20);
    FleetBench bench;
    try {
      bench = new FleetBench(new FleetBench.Settings(tasks, workMs, joinAt, leaveAt, timeout, partitions, stopGrace,
          bootstrap));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Path logRoot = logs != null ? Files.createDirectories(logs) : Files.createTempDirectory("expresso-bench-fleet-");
    String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    String commit = FleetBench.commit(); // now: the checkout may move on while the runs take minutes
    List<RunReport> reports = new ArrayList<>();
    PrintWriter o = spec.commandLine().getOut();
    for (int r = 1; r <= runs; r++) {
      Path dir = Files.createDirectories(logRoot.resolve("run" + r));
      System.err.println("bench fleet: run " + r + "/" + runs + " (worker logs in " + dir + ")...");
      RunReport rep = bench.runOnce(r, dir);
      reports.add(rep);
      o.print(bench.runText(rep));
      o.flush();
    }
    o.println();
    o.print(bench.summaryText(reports));
    o.println(bench.verdict(reports));
    o.flush();
    if (markdown != null) {
      Path parent = markdown.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      String args = String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
      Files.writeString(markdown, bench.markdown(reports, args, started, commit), StandardCharsets.UTF_8);
      System.err.println("bench fleet: wrote " + markdown);
    }
    return reports.stream().allMatch(RunReport::complete) ? 0 : 1;
  }
}
