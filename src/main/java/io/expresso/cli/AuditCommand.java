package io.expresso.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.expresso.count.SplitMix64;
import io.expresso.graph.Graph6;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphFormatException;
import io.expresso.graph.LabeledGraph;
import io.expresso.graph.TuDataset;
import io.expresso.iso.AuditReport;
import io.expresso.iso.CleanDataset;
import io.expresso.iso.ColouredGraph;
import io.expresso.iso.Leakage;
import io.expresso.iso.Orbits;
import io.expresso.report.Table;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code expresso audit}: isomorphism bias of a graph dataset (Ivanov et al.). */
@Command(name = "audit", mixinStandardHelpOptions = true, sortOptions = false,
    description = {
      "Audit a graph dataset for isomorphism bias: orbits of isomorphic graphs, mismatched target"
          + " labels, train/test leakage; optionally write a clean dataset and a leakage-free split.",
      "",
      "Metrics (N graphs): orbits = number of non-trivial orbits (classes of >= 2 isomorphic graphs);"
          + " isomorphic graphs = graphs in a non-trivial orbit (and %% of N);"
          + " isomorphic pairs %% = pairs {i,j}, i<j, with G_i isomorphic to G_j, over all N(N-1)/2 pairs;"
          + " mismatched %% = graphs in an orbit carrying more than one target label, over N."
          + " Percentages are rounded to 2 decimals. Graph ids are 1-based, as in TU files.",
      "With --node-labels/--edge-labels, isomorphisms must preserve the label values."
    })
final class AuditCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  static final class Source {
    @Option(names = "--tu", paramLabel = "DIR", description = "TU dataset directory (holding DS_A.txt or DS/DS_A.txt)")
    Path tu;

    @Option(names = "--g6", paramLabel = "FILE", description = "graph6/sparse6 file, one graph per line")
    Path g6;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(names = "--name", paramLabel = "DS", description = "TU dataset name (required with --tu; with --g6 names the clean export)")
  String name;

  @Option(names = "--labels", paramLabel = "FILE", description = "with --g6: one integer target label per line")
  Path labelsFile;

  @Option(names = "--node-labels", description = "isomorphisms must preserve node label values (TU only)")
  boolean nodeLabels;

  @Option(names = "--edge-labels", description = "isomorphisms must preserve edge label values (TU only)")
  boolean edgeLabels;

  @Option(names = "--json", description = "print one JSON object instead of tables")
  boolean json;

  @Option(names = "--clean-out", paramLabel = "DIR",
      description = "write the clean dataset in TU format: one graph per orbit whose labels agree,"
          + " orbits with conflicting labels dropped")
  Path cleanOut;

  @Option(names = "--split-file", paramLabel = "FILE", description = "test graph ids (1-based), one per line")
  Path splitFile;

  @Option(names = "--test-ratio", paramLabel = "R", description = "random test split of this share of the graphs (0 < R < 1)")
  Double testRatio;

  @Option(names = "--seed", paramLabel = "S", defaultValue = "0", description = "seed of the random split (default: ${DEFAULT-VALUE})")
  long seed;

  @Option(names = "--split-out", paramLabel = "DIR",
      description = "write the leakage-free split: DIR/train.txt and DIR/test.txt (1-based ids; leaked test graphs removed)")
  Path splitOut;

  @Override
  public Integer call() throws IOException {
    checkUsage();
    Dataset data = load();
    List<ColouredGraph> coloured = new ArrayList<>(data.graphs.size());
    for (int i = 0; i < data.graphs.size(); i++) {
      coloured.add(ColouredGraph.of(data.graphs.get(i), nodeLabels, edgeLabels));
    }
    Orbits orbits = Orbits.of(coloured);
    AuditReport report = AuditReport.of(orbits, data.labels);

    Leakage.Report leakage = null;
    if (splitFile != null || testRatio != null) {
      boolean[] isTest = splitFile != null ? readSplit(splitFile, data.graphs.size()) : randomSplit(data.graphs.size());
      leakage = Leakage.of(orbits, data.labels, isTest);
      if (splitOut != null) {
        writeSplit(isTest, leakage);
      }
    }
    List<String> notes = new ArrayList<>();
    if (cleanOut != null) {
      int[] keep = CleanDataset.keep(orbits, data.labels);
      List<LabeledGraph> clean = new ArrayList<>(keep.length);
      for (int i : keep) {
        clean.add(data.graphs.get(i));
      }
      TuDataset.write(cleanOut, data.name, clean);
      notes.add("clean dataset: " + keep.length + " of " + data.graphs.size() + " graphs written to "
          + cleanOut.resolve(data.name + "_A.txt").getParent());
    }
    if (splitOut != null) {
      notes.add("leakage-free split written to " + splitOut.resolve("train.txt") + " and " + splitOut.resolve("test.txt"));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(toJson(report, leakage, hasLabels(data)));
      notes.forEach(spec.commandLine().getErr()::println);
    } else {
      out.print(render(data, report, leakage, hasLabels(data)));
      notes.forEach(out::println);
    }
    out.flush();
    spec.commandLine().getErr().flush();
    return 0;
  }

  private void checkUsage() {
    if (source.tu != null && name == null) {
      throw new ParameterException(spec.commandLine(), "--tu needs --name (the dataset name, e.g. MUTAG)");
    }
    if (source.g6 != null && (nodeLabels || edgeLabels)) {
      throw new ParameterException(spec.commandLine(), "--node-labels/--edge-labels need a TU dataset (--tu)");
    }
    if (source.tu != null && labelsFile != null) {
      throw new ParameterException(spec.commandLine(), "--labels is for --g6; TU datasets carry DS_graph_labels.txt");
    }
    if (splitFile != null && testRatio != null) {
      throw new ParameterException(spec.commandLine(), "give either --split-file or --test-ratio, not both");
    }
    if (testRatio != null && !(testRatio > 0 && testRatio < 1)) {
      throw new ParameterException(spec.commandLine(), "--test-ratio must be strictly between 0 and 1, got " + testRatio);
    }
    if (splitOut != null && splitFile == null && testRatio == null) {
      throw new ParameterException(spec.commandLine(), "--split-out needs a split (--split-file or --test-ratio)");
    }
  }

  private record Dataset(String name, List<LabeledGraph> graphs, List<Integer> labels) {}

  private Dataset load() throws IOException {
    if (source.tu != null) {
      List<LabeledGraph> graphs = TuDataset.read(source.tu, name);
      if (nodeLabels && !graphs.isEmpty() && graphs.get(0).nodeLabels() == null) {
        throw new GraphFormatException(name + ": --node-labels given but the dataset has no " + name + "_node_labels.txt");
      }
      if (edgeLabels && !graphs.isEmpty() && graphs.get(0).edgeLabels() == null) {
        throw new GraphFormatException(name + ": --edge-labels given but the dataset has no " + name + "_edge_labels.txt");
      }
      List<Integer> labels = graphs.stream().map(LabeledGraph::graphLabel).toList();
      return new Dataset(name, graphs, labels);
    }
    List<Graph> graphs;
    try {
      graphs = Graph6.readFile(source.g6);
    } catch (NoSuchFileException e) {
      throw new GraphFormatException(source.g6 + ": no such file");
    }
    List<Integer> labels = new ArrayList<>();
    if (labelsFile != null) {
      int[] values = readIds(labelsFile, Integer.MIN_VALUE, Integer.MAX_VALUE, "target label");
      if (values.length != graphs.size()) {
        throw new GraphFormatException(labelsFile + ": " + values.length + " labels for " + graphs.size()
            + " graphs in " + source.g6);
      }
      Arrays.stream(values).forEach(labels::add);
    } else {
      graphs.forEach(g -> labels.add(null));
    }
    List<LabeledGraph> labelled = new ArrayList<>();
    for (int i = 0; i < graphs.size(); i++) {
      labelled.add(new LabeledGraph(graphs.get(i), null, null, labels.get(i)));
    }
    String dsName = name != null ? name : source.g6.getFileName().toString().replaceFirst("\\.[^.]*$", "");
    return new Dataset(dsName, labelled, labels);
  }

  /** Integers one per non-blank line, each within [min, max]. */
  private static int[] readIds(Path file, int min, int max, String what) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new GraphFormatException(file + ": no such file");
    }
    List<Integer> values = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String s = lines.get(i).strip();
      if (s.isEmpty()) {
        continue;
      }
      long v;
      try {
        v = Long.parseLong(s);
      } catch (NumberFormatException e) {
        throw new GraphFormatException(file + " line " + (i + 1) + ": expected an integer " + what + ", found '" + s + "'");
      }
      if (v < min || v > max) {
        throw new GraphFormatException(file + " line " + (i + 1) + ": " + what + " " + v + " out of range "
            + min + ".." + max);
      }
      values.add((int) v);
    }
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  private static boolean[] readSplit(Path file, int graphs) throws IOException {
    if (graphs == 0) {
      throw new GraphFormatException(file + ": the dataset has no graphs to split");
    }
    int[] ids = readIds(file, 1, graphs, "graph id");
    boolean[] isTest = new boolean[graphs];
    for (int id : ids) {
      if (isTest[id - 1]) {
        throw new GraphFormatException(file + ": graph id " + id + " listed twice");
      }
      isTest[id - 1] = true;
    }
    return isTest;
  }

  /** A seeded shuffle; the first round(R·N) graphs of it are the test set. */
  private boolean[] randomSplit(int graphs) {
    int[] order = new SplitMix64(seed).permutation(graphs); // the same split on every JVM
    boolean[] isTest = new boolean[graphs];
    int test = (int) Math.round(testRatio * graphs);
    for (int k = 0; k < test; k++) {
      isTest[order[k]] = true;
    }
    return isTest;
  }

  private void writeSplit(boolean[] isTest, Leakage.Report leakage) throws IOException {
    Files.createDirectories(splitOut);
    StringBuilder train = new StringBuilder();
    for (int i = 0; i < isTest.length; i++) {
      if (!isTest[i]) {
        train.append(i + 1).append('\n');
      }
    }
    StringBuilder test = new StringBuilder();
    for (int i : leakage.cleanTest()) {
      test.append(i + 1).append('\n');
    }
    Files.writeString(splitOut.resolve("train.txt"), train);
    Files.writeString(splitOut.resolve("test.txt"), test);
  }

  /** Without target labels there is nothing for the peering predictor to predict. */
  private static boolean hasLabels(Dataset data) {
    return data.labels.stream().anyMatch(java.util.Objects::nonNull);
  }

  private static String toJson(AuditReport r, Leakage.Report leakage, boolean hasLabels) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("graphs", r.graphs());
    m.put("orbits", r.orbits());
    m.put("isomorphic_graphs", r.isomorphicGraphs());
    m.put("isomorphic_graph_pct", r.isomorphicGraphPct());
    m.put("isomorphic_pair_pct", r.isomorphicPairPct());
    m.put("mismatched_pct", r.mismatchedPct());
    m.put("orbit_members", r.orbitMembers().stream().map(AuditCommand::oneBased).toList());
    if (leakage != null) {
      Map<String, Object> l = new LinkedHashMap<>();
      l.put("train", leakage.train());
      l.put("test", leakage.test());
      l.put("leaked_test", leakage.leakedTest().length);
      l.put("leaked_test_pct", leakage.leakedPct());
      double acc = leakage.peeringAccuracyPct();
      l.put("peering_accuracy_pct", Double.isNaN(acc) || !hasLabels ? null : acc);
      l.put("leaked_test_ids", oneBased(leakage.leakedTest()));
      m.put("leakage", l);
    }
    return new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m);
  }

  private static List<Integer> oneBased(int[] ids) {
    return Arrays.stream(ids).map(i -> i + 1).boxed().toList();
  }

  /** Non-trivial orbits listed in the table; --json lists all. */
  private static final int MAX_LISTED = 30;

  private String render(Dataset data, AuditReport r, Leakage.Report leakage, boolean hasLabels) {
    StringBuilder sb = new StringBuilder();
    sb.append("Isomorphism audit of ").append(data.name).append(": ").append(r.graphs()).append(" graphs, ")
        .append(nodeLabels || edgeLabels
            ? "isomorphisms preserve " + (nodeLabels ? "node" : "") + (nodeLabels && edgeLabels ? " and " : "")
                + (edgeLabels ? "edge" : "") + " labels"
            : "unlabelled isomorphism")
        .append("\n\n");
    long allPairs = (long) r.graphs() * (r.graphs() - 1) / 2;
    Table t = new Table("metric", "value", "%");
    t.row("graphs", String.valueOf(r.graphs()), "");
    t.row("non-trivial orbits", String.valueOf(r.orbits()), "");
    t.row("graphs in non-trivial orbits", String.valueOf(r.isomorphicGraphs()), fmt(r.isomorphicGraphPct()));
    t.row("isomorphic pairs (of " + allPairs + ")", String.valueOf(r.isomorphicPairs()), fmt(r.isomorphicPairPct()));
    t.row("mismatched graphs", String.valueOf(r.mismatchedGraphs()), fmt(r.mismatchedPct()));
    sb.append(t.render());
    if (leakage != null) {
      sb.append('\n');
      Table l = new Table("split", "value", "%");
      l.row("train graphs", String.valueOf(leakage.train()), "");
      l.row("test graphs", String.valueOf(leakage.test()), "");
      l.row("test graphs with a copy in train", String.valueOf(leakage.leakedTest().length), fmt(leakage.leakedPct()));
      double acc = leakage.peeringAccuracyPct();
      l.row("peering predictor correct on them", hasLabels ? String.valueOf(leakage.peeringCorrect()) : "n/a",
          Double.isNaN(acc) || !hasLabels ? "n/a" : fmt(acc));
      l.row("leakage-free test graphs", String.valueOf(leakage.cleanTest().length), "");
      sb.append(l.render());
    }
    if (r.orbits() > 0) {
      sb.append('\n');
      Table sizes = new Table("orbit size", "orbits");
      r.orbitSizes().forEach((size, count) -> sizes.row(String.valueOf(size), String.valueOf(count)));
      sb.append(sizes.render()).append('\n');
      Table members = new Table("orbit", "size", "labels", "graph ids (1-based)");
      List<int[]> orbits = r.orbitMembers();
      for (int k = 0; k < Math.min(orbits.size(), MAX_LISTED); k++) {
        int[] o = orbits.get(k);
        java.util.TreeSet<String> labels = new java.util.TreeSet<>();
        StringJoiner ids = new StringJoiner(" ");
        for (int i : o) {
          labels.add(data.labels.get(i) == null ? "-" : String.valueOf(data.labels.get(i)));
          ids.add(String.valueOf(i + 1));
        }
        members.row(String.valueOf(k + 1), String.valueOf(o.length), String.join(",", labels), ids.toString());
      }
      sb.append(members.render());
      if (orbits.size() > MAX_LISTED) {
        sb.append("... ").append(orbits.size() - MAX_LISTED).append(" more orbits (--json lists all)\n");
      }
    }
    return sb.toString();
  }

  private static String fmt(double pct) {
    return String.format(java.util.Locale.ROOT, "%.2f", pct);
  }
}
