package io.expresso.cli;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph6;
import io.expresso.graph.Graph;
import io.expresso.report.Table;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code expresso count}: exact induced pattern counts of every graph in a file. */
@Command(name = "count", mixinStandardHelpOptions = true,
    description = {"Exact induced counts of a pattern in every graph of a graph6/sparse6 file.",
        "Per node: the number of induced copies containing the node."},
    subcommands = {CountCommand.Generate.class})
final class CountCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--pattern", converter = PatternConverter.class,
      completionCandidates = PatternConverter.Names.class,
      description = "One of: ${COMPLETION-CANDIDATES}.")
  Pattern pattern;

  @Option(names = "--per-node", description = "Print one count per node (copies containing it).")
  boolean perNode;

  @Option(names = "--orbits", description = "With --per-node: split each node's count by its degree"
      + " inside the copy (its orbit), printed as d0/d1/d2/d3.")
  boolean orbits;

  @Parameters(paramLabel = "FILE", arity = "0..1", description = "graph6 or sparse6 file, one graph per line")
  Path file;

  @Override
  public Integer call() throws Exception {
    if (pattern == null || file == null) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          pattern == null ? "missing required option '--pattern'" : "missing graph FILE");
    }
    if (orbits && !perNode) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--orbits needs --per-node");
    }
    List<Graph> graphs = readGraphs(file);
    PrintWriter out = spec.commandLine().getOut();
    if (!perNode) {
      Table t = new Table("graph", "n", "m", pattern.cliName());
      long total = 0;
      for (int g = 0; g < graphs.size(); g++) {
        Graph graph = graphs.get(g);
        long c = InducedCounts.count(graph, pattern);
        total += c;
        t.row(String.valueOf(g), String.valueOf(graph.n()), String.valueOf(graph.m()), String.valueOf(c));
      }
      t.separator().row("total", "", "", String.valueOf(total));
      out.print(t.render());
    } else {
      Table t = new Table("graph", "node", "degree", orbits ? pattern.cliName() + " by orbit" : pattern.cliName());
      for (int g = 0; g < graphs.size(); g++) {
        Graph graph = graphs.get(g);
        if (orbits) {
          long[][] byOrbit = InducedCounts.perNodeOrbits(graph, pattern);
          for (int v = 0; v < graph.n(); v++) {
            StringBuilder sb = new StringBuilder();
            for (int d = 0; d < byOrbit[v].length; d++) {
              sb.append(d == 0 ? "" : "/").append(byOrbit[v][d]);
            }
            t.row(String.valueOf(g), String.valueOf(v), String.valueOf(graph.degree(v)), sb.toString());
          }
        } else {
          long[] counts = InducedCounts.perNode(graph, pattern);
          for (int v = 0; v < graph.n(); v++) {
            t.row(String.valueOf(g), String.valueOf(v), String.valueOf(graph.degree(v)), String.valueOf(counts[v]));
          }
        }
      }
      out.print(t.render());
    }
    out.flush();
    return 0;
  }

  /** {@code expresso count generate}: a seeded random counting dataset with all eight counts. */
  @Command(name = "generate", mixinStandardHelpOptions = true,
      description = {"Generate seeded random graphs and their exact counts of all eight patterns:",
          "writes PREFIX.g6 (graph6) and PREFIX.csv (graph,triangle,2-path,...,3-path)."})
  static final class Generate implements Callable<Integer> {

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", defaultValue = "sbm",
        description = "sbm (the paper's: 3 communities of 10, p_in 0.2/0.3/0.4, p_out 0.1) or er"
            + " (Erdős–Rényi G(n, p)). Default: ${DEFAULT-VALUE}.")
    String model;

    @Option(names = "--n", defaultValue = "30", description = "Vertices per graph for er. Default: ${DEFAULT-VALUE}.")
    int n;

    @Option(names = "--p", defaultValue = "0.2", description = "Edge probability for er. Default: ${DEFAULT-VALUE}.")
    double p;

    @Option(names = "--graphs", defaultValue = "100", description = "Number of graphs. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--seed", defaultValue = "0", description = "Graph r uses seed + r. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--out", required = true, paramLabel = "PREFIX", description = "Output path prefix.")
    Path prefix;

    @Option(names = "--study-split", description = "sbm only: also write the robustness study's 30/20/50 split of"
        + " these graphs as PREFIX.train, .validation and .test (.g6, .csv): with --seed "
        + io.expresso.robust.StudyData.DATA_SEED + " exactly what a train task of --graphs N trains, selects"
        + " and tests on")
    boolean studySplit;

    @Override
    public Integer call() throws Exception {
      if (size < 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--graphs must be >= 0, got " + size);
      }
      java.util.function.LongFunction<Graph> generator = switch (model) {
        case "sbm" -> io.expresso.count.RandomGraphs::paperSbm;
        case "er" -> {
          if (n < 0 || !(p >= 0 && p <= 1)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                "er needs --n >= 0 and --p in [0, 1], got n=" + n + ", p=" + p);
          }
          yield s -> io.expresso.count.RandomGraphs.erdosRenyi(n, p, s);
        }
        default -> throw new CommandLine.ParameterException(spec.commandLine(),
            "unknown model '" + model + "'; valid: sbm, er");
      };
      if (studySplit && !model.equals("sbm")) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--study-split needs --model sbm, got '" + model + "'");
      }
      io.expresso.count.CountingDataset d = io.expresso.count.CountingDataset.generate(size, seed, generator);
      Path g6 = Path.of(prefix + ".g6");
      Path csv = Path.of(prefix + ".csv");
      d.write(g6, csv);
      PrintWriter out = spec.commandLine().getOut();
      out.printf(java.util.Locale.ROOT, "wrote %d graphs (mean %.2f edges) to %s and counts to %s%n",
          size, d.meanEdges(), g6, csv);
      if (studySplit) {
        // the study's own split of the same graphs (RobustnessData generates them as above)
        io.expresso.count.CountingSplit split = io.expresso.count.RobustnessData.sbm(size, seed);
        for (var part : java.util.Map.of("train", split.train(), "validation", split.validation(), "test", split.test())
            .entrySet()) {
          part.getValue().write(Path.of(prefix + "." + part.getKey() + ".g6"), Path.of(prefix + "." + part.getKey() + ".csv"));
          out.printf(java.util.Locale.ROOT, "wrote the study's %s split: %d graphs to %s.%s.g6/.csv%n", part.getKey(),
              part.getValue().graphs().size(), prefix, part.getKey());
        }
      }
      out.flush();
      return 0;
    }
  }

  /** Reads a graph file; a missing or unreadable file is one clear message, not a stack trace. */
  static List<Graph> readGraphs(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("cannot read graph file " + file + ": no such file");
    }
    return Graph6.readFile(file);
  }
}
