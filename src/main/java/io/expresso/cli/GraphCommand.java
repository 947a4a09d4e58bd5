package io.expresso.cli;

import io.expresso.graph.Graph6;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphProperties;
import io.expresso.graph.ShortestPaths;
import io.expresso.report.Table;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code expresso graph ...}: look at graph files. */
@Command(name = "graph", mixinStandardHelpOptions = true, description = "Inspect graph files.",
    subcommands = {GraphCommand.Info.class})
final class GraphCommand implements Runnable {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand (info)");
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "Print n, m, degree range, diameter, regularity and strongly-regular parameters"
          + " of every graph in a graph6/sparse6 file.")
  static final class Info implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "graph6 or sparse6 file, one graph per line")
    Path file;

    @Override
    public Integer call() throws Exception {
      List<Graph> graphs = Graph6.readFile(file);
      Table t = new Table("graph", "n", "m", "degree", "diameter", "regular", "strongly regular");
      for (int i = 0; i < graphs.size(); i++) {
        Graph g = graphs.get(i);
        int diam = ShortestPaths.diameter(g);
        int[] srg = GraphProperties.stronglyRegularParameters(g);
        t.row(String.valueOf(i), String.valueOf(g.n()), String.valueOf(g.m()),
            g.minDegree() == g.maxDegree() ? String.valueOf(g.minDegree()) : g.minDegree() + ".." + g.maxDegree(),
            diam == ShortestPaths.UNREACHABLE ? "∞ (disconnected)" : String.valueOf(diam),
            g.isRegular() ? "yes" : "no",
            srg == null ? "no" : String.format("srg(%d,%d,%d,%d)", srg[0], srg[1], srg[2], srg[3]));
      }
      System.out.print(t.render());
      return 0;
    }
  }
}
