package io.expresso.cli;

import io.expresso.count.InducedCounts;
import io.expresso.count.Pattern;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code expresso count}: exact induced pattern counts of every graph in a file. */
@Command(name = "count", mixinStandardHelpOptions = true,
    description = {"Exact induced counts of a pattern in every graph of a graph6/sparse6 file.",
        "Per node: the number of induced copies containing the node."})
final class CountCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--pattern", required = true, converter = PatternConverter.class,
      completionCandidates = PatternConverter.Names.class,
      description = "One of: ${COMPLETION-CANDIDATES}.")
  Pattern pattern;

  @Option(names = "--per-node", description = "Print one count per node (copies containing it).")
  boolean perNode;

  @Option(names = "--orbits", description = "With --per-node: split each node's count by its degree"
      + " inside the copy (its orbit), printed as d0/d1/d2/d3.")
  boolean orbits;

  @Parameters(paramLabel = "FILE", description = "graph6 or sparse6 file, one graph per line")
  Path file;

  @Override
  public Integer call() throws Exception {
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

  /** Reads a graph file; a missing or unreadable file is one clear message, not a stack trace. */
  static List<Graph> readGraphs(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("cannot read graph file " + file + ": no such file");
    }
    return Graph6.readFile(file);
  }
}
