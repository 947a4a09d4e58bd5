package io.expresso.count;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * Graphs together with the exact induced counts of all eight patterns. Stored as two files: the
 * graphs in graph6 (one per line) and a CSV with header {@code graph,triangle,2-path,...} whose
 * row r holds the counts of graph r.
 */
public record CountingDataset(List<Graph> graphs, long[][] counts) {

  public CountingDataset {
    graphs = List.copyOf(graphs);
    if (counts.length != graphs.size()) {
      throw new IllegalArgumentException(counts.length + " count rows for " + graphs.size() + " graphs");
    }
  }

  /** Counts every pattern in every graph. */
  public static CountingDataset of(List<Graph> graphs) {
    long[][] counts = new long[graphs.size()][];
    for (int g = 0; g < graphs.size(); g++) {
      counts[g] = InducedCounts.countAll(graphs.get(g));
    }
    return new CountingDataset(graphs, counts);
  }

  /** {@code size} graphs, graph r drawn by {@code generator} with seed {@code seed + r}. */
  public static CountingDataset generate(int size, long seed, LongFunction<Graph> generator) {
    List<Graph> graphs = new ArrayList<>(size);
    for (int r = 0; r < size; r++) {
      graphs.add(generator.apply(seed + r));
    }
    return of(graphs);
  }

  /** Count of pattern {@code p} in graph {@code g}. */
  public long count(int g, Pattern p) {
    return counts[g][p.ordinal()];
  }

  /** Mean number of edges, the reference for budgets given as a fraction of edges. */
  public double meanEdges() {
    return graphs.stream().mapToInt(Graph::m).average().orElse(0);
  }

  public void write(Path graph6File, Path countsCsv) throws IOException {
    Graph6.writeFile(graph6File, graphs);
    StringBuilder sb = new StringBuilder(header()).append('\n');
    for (int g = 0; g < graphs.size(); g++) {
      sb.append(g);
      for (long c : counts[g]) {
        sb.append(',').append(c);
      }
      sb.append('\n');
    }
    Files.writeString(countsCsv, sb, StandardCharsets.US_ASCII);
  }

  /**
   * Reads a dataset written by {@link #write} and checks every stored count against a recount.
   *
   * @throws IOException when the files disagree with each other or with the exact counts,
   *     naming the file and line
   */
  public static CountingDataset read(Path graph6File, Path countsCsv) throws IOException {
    List<Graph> graphs = Graph6.readFile(graph6File);
    List<String> lines = Files.readAllLines(countsCsv, StandardCharsets.US_ASCII);
    String where = countsCsv.getFileName().toString();
    if (lines.isEmpty() || !lines.get(0).equals(header())) {
      throw new IOException(where + " line 1: expected header '" + header() + "'");
    }
    if (lines.size() - 1 != graphs.size()) {
      throw new IOException(where + ": " + (lines.size() - 1) + " count rows for " + graphs.size()
          + " graphs in " + graph6File.getFileName());
    }
    CountingDataset exact = of(graphs);
    for (int g = 0; g < graphs.size(); g++) {
      String[] cells = lines.get(g + 1).split(",", -1);
      if (cells.length != Pattern.values().length + 1 || !cells[0].equals(String.valueOf(g))) {
        throw new IOException(where + " line " + (g + 2) + ": expected graph index " + g + " and "
            + Pattern.values().length + " counts");
      }
      for (Pattern p : Pattern.values()) {
        String cell = cells[p.ordinal() + 1];
        if (!cell.equals(String.valueOf(exact.count(g, p)))) {
          throw new IOException(where + " line " + (g + 2) + ": " + p + " count '" + cell
              + "' but the graph has " + exact.count(g, p));
        }
      }
    }
    return exact;
  }

  private static String header() {
    StringBuilder sb = new StringBuilder("graph");
    for (Pattern p : Pattern.values()) {
      sb.append(',').append(p.cliName());
    }
    return sb.toString();
  }
}
