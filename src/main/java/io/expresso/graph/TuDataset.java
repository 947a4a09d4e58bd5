package io.expresso.graph;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reader and writer for the TU graph-dataset format (Morris et al., TUDataset): in a directory,
 * {@code DS_A.txt} (one "row, col" edge per line, 1-based global vertex ids),
 * {@code DS_graph_indicator.txt} (graph id of each vertex), {@code DS_graph_labels.txt}, and the
 * optional {@code DS_node_labels.txt} and {@code DS_edge_labels.txt} (one label per line of
 * {@code DS_A.txt}). Graphs are simple and undirected: an edge may be listed in one or both
 * directions, but not twice in the same direction. {@code DS_graph_attributes.txt}, one real number
 * per graph (the TU collection's regression targets), is read apart ({@link #readGraphAttributes}).
 */
public final class TuDataset {

  private TuDataset() {}

  /** Reads dataset {@code name} from {@code dir} (or from {@code dir/name} if that holds it). */
  public static List<LabeledGraph> read(Path dir, String name) throws IOException {
    Path base = base(dir, name);
    Path aFile = base.resolve(name + "_A.txt");
    Path indicatorFile = base.resolve(name + "_graph_indicator.txt");
    Path graphLabelFile = base.resolve(name + "_graph_labels.txt");
    Path nodeLabelFile = base.resolve(name + "_node_labels.txt");
    Path edgeLabelFile = base.resolve(name + "_edge_labels.txt");
    for (Path required : List.of(aFile, indicatorFile)) {
      if (!Files.isRegularFile(required)) {
        throw new GraphFormatException(required + ": required TU file is missing");
      }
    }

    int[] indicator = readInts(indicatorFile, 1);
    int vertices = indicator.length;
    // Graph g (1-based) owns global vertices first[g] .. first[g+1]-1 (0-based).
    List<Integer> first = new ArrayList<>();
    for (int v = 0; v < vertices; v++) {
      int g = indicator[v];
      int expected = first.size();
      if (g == expected + 1) {
        first.add(v);
      } else if (g != expected) {
        throw new GraphFormatException(indicatorFile.getFileName() + " line " + (v + 1)
            + ": graph id " + g + " out of order (expected " + expected + " or " + (expected + 1)
            + "; vertices of a graph must be contiguous and ids start at 1)");
      }
    }
    int graphs = first.size();
    first.add(vertices);

    int[] graphLabels = Files.exists(graphLabelFile) ? readInts(graphLabelFile, 1) : null;
    if (graphLabels != null && graphLabels.length != graphs) {
      throw new GraphFormatException(graphLabelFile.getFileName() + " line "
          + (graphLabels.length < graphs ? graphLabels.length + 1 + ": missing, " : graphs + 1 + ": one too many, ")
          + graphLabels.length + " labels for " + graphs + " graphs (" + indicatorFile.getFileName() + ")");
    }
    int[] nodeLabels = Files.exists(nodeLabelFile) ? readInts(nodeLabelFile, 1) : null;
    if (nodeLabels != null && nodeLabels.length != vertices) {
      throw new GraphFormatException(nodeLabelFile.getFileName() + ": " + nodeLabels.length
          + " labels for " + vertices + " vertices");
    }

    int[][] edges = readEdges(aFile, vertices);
    int[] edgeLabels = Files.exists(edgeLabelFile) ? readInts(edgeLabelFile, 1) : null;
    if (edgeLabels != null && edgeLabels.length != edges.length) {
      throw new GraphFormatException(edgeLabelFile.getFileName() + ": " + edgeLabels.length
          + " labels for " + edges.length + " lines of " + aFile.getFileName());
    }

    // Group edges by graph, checking each stays inside one graph.
    List<List<Integer>> edgesOf = new ArrayList<>();
    for (int g = 0; g < graphs; g++) {
      edgesOf.add(new ArrayList<>());
    }
    for (int e = 0; e < edges.length; e++) {
      int gu = indicator[edges[e][0]] - 1;
      int gv = indicator[edges[e][1]] - 1;
      if (gu != gv) {
        throw new GraphFormatException(aFile.getFileName() + " line " + (e + 1) + ": edge joins vertex "
            + (edges[e][0] + 1) + " of graph " + (gu + 1) + " to vertex " + (edges[e][1] + 1)
            + " of graph " + (gv + 1));
      }
      edgesOf.get(gu).add(e);
    }

    List<LabeledGraph> out = new ArrayList<>(graphs);
    for (int g = 0; g < graphs; g++) {
      int lo = first.get(g);
      int n = first.get(g + 1) - lo;
      GraphBuilder b;
      try {
        b = new GraphBuilder(n);
      } catch (GraphFormatException ex) {
        throw ex.at(indicatorFile.getFileName() + " graph " + (g + 1));
      }
      Map<Long, Integer> labelOf = new HashMap<>();
      for (int e : edgesOf.get(g)) {
        int u = edges[e][0] - lo;
        int v = edges[e][1] - lo;
        String where = aFile.getFileName() + " line " + (e + 1) + " (graph " + (g + 1) + ")";
        if (u == v) {
          throw new GraphFormatException(where + ": self-loop at vertex " + (edges[e][0] + 1));
        }
        long key = (long) Math.min(u, v) * n + Math.max(u, v);
        long directed = (long) u * n + v;
        Integer label = edgeLabels == null ? 0 : edgeLabels[e];
        if (b.hasEdge(u, v)) {
          // The reverse direction of an edge already seen is fine; the same direction twice is not.
          if (labelOf.containsKey(-1 - directed)) {
            throw new GraphFormatException(where + ": duplicate edge (" + (edges[e][0] + 1) + ", "
                + (edges[e][1] + 1) + ")");
          }
          if (!labelOf.get(key).equals(label)) {
            throw new GraphFormatException(where + ": edge label " + label
                + " differs from the label " + labelOf.get(key) + " of the reverse direction");
          }
        } else {
          b.addEdge(u, v);
          labelOf.put(key, label);
        }
        labelOf.put(-1 - directed, label);
      }
      Graph graph = b.build();
      int[] slotLabels = null;
      if (edgeLabels != null) {
        slotLabels = new int[graph.csrTargets().length];
        for (int v = 0; v < n; v++) {
          for (int k = graph.csrOffsets()[v]; k < graph.csrOffsets()[v + 1]; k++) {
            int u = graph.csrTargets()[k];
            slotLabels[k] = labelOf.get((long) Math.min(u, v) * n + Math.max(u, v));
          }
        }
      }
      int[] nl = nodeLabels == null ? null : java.util.Arrays.copyOfRange(nodeLabels, lo, lo + n);
      out.add(new LabeledGraph(graph, nl, slotLabels, graphLabels == null ? null : graphLabels[g]));
    }
    return out;
  }

  /** The directory that holds dataset {@code name}: {@code dir}, or {@code dir/name} if that holds it. */
  private static Path base(Path dir, String name) {
    return Files.exists(dir.resolve(name + "_A.txt")) ? dir : dir.resolve(name);
  }

  /** Whether dataset {@code name} in {@code dir} (or {@code dir/name}) has {@code DS_graph_attributes.txt}. */
  public static boolean hasGraphAttributes(Path dir, String name) {
    return Files.isRegularFile(base(dir, name).resolve(name + "_graph_attributes.txt"));
  }

  /**
   * {@code DS_graph_attributes.txt} of dataset {@code name}: one finite real number per graph, line
   * i for graph i (the TU collection's regression format); null when the file is absent. A line
   * with several comma-separated values is refused (one target per graph).
   *
   * @param graphs the dataset's graph count (from {@link #read})
   * @throws GraphFormatException naming the file and line: a value that is not a finite real number,
   *     a line missing or one too many (and, when {@code DS_graph_labels.txt} exists, its line count)
   */
  public static double[] readGraphAttributes(Path dir, String name, int graphs) throws IOException {
    Path base = base(dir, name);
    Path file = base.resolve(name + "_graph_attributes.txt");
    if (!Files.isRegularFile(file)) {
      return null;
    }
    List<String> lines = readLines(file);
    double[] values = new double[lines.size()];
    for (int i = 0; i < lines.size(); i++) {
      String where = file.getFileName() + " line " + (i + 1);
      String[] fields = lines.get(i).split(",");
      if (fields.length != 1) {
        throw new GraphFormatException(where + ": expected one real number (the graph's target), found "
            + fields.length + " values");
      }
      String field = fields[0].strip();
      try {
        values[i] = Double.parseDouble(field);
      } catch (NumberFormatException e) {
        throw new GraphFormatException(where + ": expected a real number, found '" + field + "'");
      }
      if (!Double.isFinite(values[i])) {
        throw new GraphFormatException(where + ": the target " + field + " is not a finite number");
      }
    }
    if (values.length != graphs) {
      Path labelFile = base.resolve(name + "_graph_labels.txt");
      String labels = Files.isRegularFile(labelFile)
          ? "; " + labelFile.getFileName() + " has " + readLines(labelFile).size() + " lines" : "";
      String line = values.length < graphs
          ? "line " + (values.length + 1) + ": missing, " : "line " + (graphs + 1) + ": one too many, ";
      throw new GraphFormatException(file.getFileName() + " " + line + values.length + " values for " + graphs
          + " graphs (" + name + "_graph_indicator.txt)" + labels);
    }
    return values;
  }

  /** Writes {@code graphs} as dataset {@code name} in {@code dir}, both edge directions listed. */
  public static void write(Path dir, String name, List<LabeledGraph> graphs) throws IOException {
    write(dir, name, graphs, null);
  }

  /**
   * Writes {@code graphs} as dataset {@code name} in {@code dir}, both edge directions listed, and
   * {@code graphAttributes} (one per graph; null for none) as {@code DS_graph_attributes.txt}, each
   * in Java's shortest round-trip form.
   */
  public static void write(Path dir, String name, List<LabeledGraph> graphs, double[] graphAttributes)
      throws IOException {
    if (graphAttributes != null && graphAttributes.length != graphs.size()) {
      throw new IllegalArgumentException(graphAttributes.length + " graph attributes for " + graphs.size() + " graphs");
    }
    Files.createDirectories(dir);
    StringBuilder a = new StringBuilder();
    StringBuilder indicator = new StringBuilder();
    StringBuilder graphLabels = new StringBuilder();
    StringBuilder nodeLabels = new StringBuilder();
    StringBuilder edgeLabels = new StringBuilder();
    boolean hasGraphLabels = !graphs.isEmpty() && graphs.stream().allMatch(g -> g.graphLabel() != null);
    boolean hasNodeLabels = !graphs.isEmpty() && graphs.stream().allMatch(g -> g.nodeLabels() != null);
    boolean hasEdgeLabels = !graphs.isEmpty() && graphs.stream().allMatch(g -> g.edgeLabels() != null);
    int offset = 0;
    for (int gi = 0; gi < graphs.size(); gi++) {
      LabeledGraph lg = graphs.get(gi);
      Graph g = lg.graph();
      for (int v = 0; v < g.n(); v++) {
        indicator.append(gi + 1).append('\n');
        if (hasNodeLabels) {
          nodeLabels.append(lg.nodeLabels()[v]).append('\n');
        }
        for (int k = g.csrOffsets()[v]; k < g.csrOffsets()[v + 1]; k++) {
          a.append(offset + v + 1).append(", ").append(offset + g.csrTargets()[k] + 1).append('\n');
          if (hasEdgeLabels) {
            edgeLabels.append(lg.edgeLabels()[k]).append('\n');
          }
        }
      }
      if (hasGraphLabels) {
        graphLabels.append(lg.graphLabel()).append('\n');
      }
      offset += g.n();
    }
    Files.writeString(dir.resolve(name + "_A.txt"), a);
    Files.writeString(dir.resolve(name + "_graph_indicator.txt"), indicator);
    if (hasGraphLabels) {
      Files.writeString(dir.resolve(name + "_graph_labels.txt"), graphLabels);
    }
    if (hasNodeLabels) {
      Files.writeString(dir.resolve(name + "_node_labels.txt"), nodeLabels);
    }
    if (hasEdgeLabels) {
      Files.writeString(dir.resolve(name + "_edge_labels.txt"), edgeLabels);
    }
    if (graphAttributes != null) {
      StringBuilder attributes = new StringBuilder();
      for (double v : graphAttributes) {
        attributes.append(v).append('\n');
      }
      Files.writeString(dir.resolve(name + "_graph_attributes.txt"), attributes);
    }
  }

  /** One integer per non-blank line (the first of comma-separated values). */
  private static int[] readInts(Path file, int lineBase) throws IOException {
    List<String> lines = readLines(file);
    int[] values = new int[lines.size()];
    for (int i = 0; i < lines.size(); i++) {
      String field = lines.get(i).split(",")[0].strip();
      try {
        values[i] = Integer.parseInt(field);
      } catch (NumberFormatException e) {
        throw new GraphFormatException(file.getFileName() + " line " + (i + lineBase)
            + ": expected an integer, found '" + field + "'");
      }
    }
    return values;
  }

  /** Edges as 0-based global vertex pairs, checked against the vertex count. */
  private static int[][] readEdges(Path file, int vertices) throws IOException {
    List<String> lines = readLines(file);
    int[][] edges = new int[lines.size()][];
    for (int i = 0; i < lines.size(); i++) {
      String[] parts = lines.get(i).split(",");
      String where = file.getFileName() + " line " + (i + 1);
      if (parts.length != 2) {
        throw new GraphFormatException(where + ": expected 'row, col', found '" + lines.get(i).strip() + "'");
      }
      int[] e = new int[2];
      for (int j = 0; j < 2; j++) {
        try {
          e[j] = Integer.parseInt(parts[j].strip());
        } catch (NumberFormatException ex) {
          throw new GraphFormatException(where + ": expected a vertex id, found '" + parts[j].strip() + "'");
        }
        if (e[j] < 1 || e[j] > vertices) {
          throw new GraphFormatException(where + ": vertex id " + e[j] + " out of range 1.." + vertices);
        }
        e[j]--;
      }
      edges[i] = e;
    }
    return edges;
  }

  /** Non-blank lines; blank lines are only allowed at the end of the file. */
  private static List<String> readLines(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int blankAt = -1;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          blankAt = blankAt < 0 ? lineNo : blankAt;
          continue;
        }
        if (blankAt >= 0) {
          throw new GraphFormatException(file.getFileName() + " line " + blankAt + ": blank line inside the file");
        }
        lines.add(line);
      }
    }
    return lines;
  }
}
