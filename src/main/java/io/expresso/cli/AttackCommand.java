package io.expresso.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.expresso.count.DeltaFlipCounter;
import io.expresso.count.EgoNetFlipCounter;
import io.expresso.count.FlipCounter;
import io.expresso.count.InducedCounts;
import io.expresso.count.MutableGraph;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.report.Table;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code expresso attack ...}: adversarial attacks on counting models and their machinery. */
@Command(name = "attack", mixinStandardHelpOptions = true,
    description = "Adversarial attacks on subgraph-counting models.",
    subcommands = {AttackCommand.Bench.class})
final class AttackCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (bench)");
  }

  @Command(name = "bench", mixinStandardHelpOptions = true,
      description = {"Flip every unordered node pair of every graph, one at a time, and compute the",
          "new exact count incrementally; then check every result against a full recount.",
          "'seconds' times the incremental updates only."})
  static final class Bench implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--pattern", required = true, converter = PatternConverter.class,
        completionCandidates = PatternConverter.Names.class,
        description = "One of: ${COMPLETION-CANDIDATES}.")
    Pattern pattern;

    @Option(names = "--graphs", required = true, paramLabel = "FILE",
        description = "graph6 or sparse6 file, one graph per line")
    Path graphsFile;

    @Option(names = "--json", description = "Print one JSON object instead of a table.")
    boolean json;

    @Option(names = "--counter", defaultValue = "delta",
        description = "Update rule: delta (copies through both endpoints, default) or ego-net"
            + " (the reference recount of Prop. 5.2).")
    String counterName;

    @Override
    public Integer call() throws Exception {
      FlipCounter counter = switch (counterName) {
        case "delta" -> new DeltaFlipCounter();
        case "ego-net" -> new EgoNetFlipCounter();
        default -> throw new CommandLine.ParameterException(spec.commandLine(),
            "unknown counter '" + counterName + "'; valid: delta, ego-net");
      };
      List<Graph> graphs = CountCommand.readGraphs(graphsFile);
      long[][] updated = new long[graphs.size()][];
      long[] before = new long[graphs.size()];
      MutableGraph[] work = new MutableGraph[graphs.size()];
      for (int g = 0; g < graphs.size(); g++) {
        before[g] = InducedCounts.count(graphs.get(g), pattern);
        work[g] = MutableGraph.of(graphs.get(g));
        int n = graphs.get(g).n();
        updated[g] = new long[n * (n - 1) / 2];
      }
      long start = System.nanoTime();
      for (int g = 0; g < graphs.size(); g++) {
        MutableGraph w = work[g];
        long c = before[g];
        long[] out = updated[g];
        int n = w.n();
        int k = 0;
        for (int i = 0; i < n; i++) {
          for (int j = i + 1; j < n; j++) {
            out[k++] = counter.countAfterFlip(w, pattern, c, i, j);
          }
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long perturbations = 0;
      long countSum = 0;
      long mismatches = 0;
      for (int g = 0; g < graphs.size(); g++) {
        Graph graph = graphs.get(g);
        int n = graph.n();
        int k = 0;
        for (int i = 0; i < n; i++) {
          for (int j = i + 1; j < n; j++) {
            long incremental = updated[g][k++];
            perturbations++;
            countSum += incremental;
            if (incremental != InducedCounts.count(graph.flip(i, j), pattern)) {
              mismatches++;
            }
          }
        }
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode node = mapper.createObjectNode();
        node.put("pattern", pattern.cliName());
        node.put("graphs", graphs.size());
        node.put("perturbations", perturbations);
        node.put("count_sum", countSum);
        node.put("seconds", seconds);
        node.put("mismatches", mismatches);
        out.println(mapper.writeValueAsString(node));
      } else {
        Table t = new Table("pattern", "graphs", "perturbations", "count sum", "seconds", "µs/flip", "mismatches");
        t.row(pattern.cliName(), String.valueOf(graphs.size()), String.valueOf(perturbations),
            String.valueOf(countSum), String.format(Locale.ROOT, "%.6f", seconds),
            perturbations == 0 ? "-" : String.format(Locale.ROOT, "%.3f", seconds * 1e6 / perturbations),
            String.valueOf(mismatches));
        out.print(t.render());
      }
      out.flush();
      if (mismatches > 0) {
        spec.commandLine().getErr().println("expresso: error: " + mismatches
            + " incremental counts differ from a full recount");
        return 1;
      }
      return 0;
    }
  }
}
