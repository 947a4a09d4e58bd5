package io.expresso.dataset;

import io.expresso.graph.GraphFormatException;
import io.expresso.graph.LabeledGraph;
import io.expresso.graph.TuDataset;
import io.expresso.iso.CleanDataset;
import io.expresso.iso.ColouredGraph;
import io.expresso.iso.Orbits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Datasets by name, as tasks and commands give them: {@code csl[:seed=N]},
 * {@code planted[:seed=N]}, {@code tu:DIR} (a TU dataset directory on the reader's disk, named by its
 * last path element, e.g. {@code tu:data/MUTAG}), and {@code clean:SPEC}, the isomorphism audit's
 * clean version of any of them ({@link CleanDataset}: one graph per orbit, orbits with conflicting
 * labels dropped).
 */
public final class DatasetSpecs {

  public static final String FORMS = "csl[:seed=N], planted[:seed=N], tu:DIR (a TU dataset directory), clean:SPEC";

  private DatasetSpecs() {}

  /**
   * Loads {@code spec}.
   *
   * @throws IllegalArgumentException for a spec that names no dataset
   * @throws IOException if a TU dataset cannot be read ({@link GraphFormatException} for a bad file)
   */
  public static GraphDataset load(String spec) throws IOException {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("empty dataset spec; expected " + FORMS);
    }
    String s = spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("clean:")) {
      return clean(s, load(s.substring("clean:".length())));
    }
    if (lower.startsWith("tu:")) {
      return tu(s, Path.of(s.substring(3)));
    }
    String kind = lower.contains(":") ? lower.substring(0, lower.indexOf(':')) : lower;
    long seed = seed(s);
    return switch (kind) {
      case "csl" -> CslDataset.build(s, seed);
      case "planted" -> PlantedDuplicates.build(s, seed);
      default -> throw new IllegalArgumentException("unknown dataset '" + spec + "'; expected " + FORMS);
    };
  }

  /**
   * Checks the form of {@code spec} without reading or building anything (what a publisher can check
   * before the workers load it).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static void checkForm(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("empty dataset spec; expected " + FORMS);
    }
    String s = spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.startsWith("clean:")) {
      checkForm(s.substring("clean:".length()));
    } else if (lower.startsWith("tu:")) {
      if (s.substring(3).isBlank()) {
        throw new IllegalArgumentException("dataset '" + spec + "': tu: needs a directory such as data/MUTAG");
      }
    } else {
      String kind = lower.contains(":") ? lower.substring(0, lower.indexOf(':')) : lower;
      if (!kind.equals("csl") && !kind.equals("planted")) {
        throw new IllegalArgumentException("unknown dataset '" + spec + "'; expected " + FORMS);
      }
      seed(s);
    }
  }

  private static long seed(String spec) {
    int colon = spec.indexOf(':');
    if (colon < 0) {
      return 0;
    }
    String rest = spec.substring(colon + 1).trim();
    if (!rest.toLowerCase(Locale.ROOT).startsWith("seed=")) {
      throw new IllegalArgumentException("dataset '" + spec + "': expected seed=N after ':'");
    }
    try {
      return Long.parseLong(rest.substring(5).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("dataset '" + spec + "': seed is not a whole number: '" + rest.substring(5) + "'");
    }
  }

  private static GraphDataset tu(String spec, Path dir) throws IOException {
    Path name = dir.getFileName();
    if (name == null) {
      throw new IllegalArgumentException("dataset '" + spec + "': tu: needs a directory such as data/MUTAG");
    }
    Path parent = dir.getParent() == null ? Path.of(".") : dir.getParent();
    List<LabeledGraph> graphs = TuDataset.read(parent, name.toString());
    TreeSet<Integer> values = new TreeSet<>();
    for (int i = 0; i < graphs.size(); i++) {
      if (graphs.get(i).graphLabel() == null) {
        throw new GraphFormatException(dir + ": graph " + (i + 1) + " has no label (" + name + "_graph_labels.txt)");
      }
      values.add(graphs.get(i).graphLabel());
    }
    List<Integer> classes = new ArrayList<>(values);
    int[] labels = new int[graphs.size()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = classes.indexOf(graphs.get(i).graphLabel());
    }
    return new GraphDataset(spec, graphs, labels, classes.stream().map(String::valueOf).toList());
  }

  /** The audit's clean version: what {@code expresso audit --clean-out} writes for the same data. */
  static GraphDataset clean(String spec, GraphDataset raw) {
    List<ColouredGraph> coloured = new ArrayList<>(raw.size());
    List<Integer> labels = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      coloured.add(raw.coloured(i));
      labels.add(raw.labels()[i]);
    }
    int[] keep = CleanDataset.keep(Orbits.of(coloured), labels);
    List<LabeledGraph> graphs = new ArrayList<>(keep.length);
    int[] y = new int[keep.length];
    for (int k = 0; k < keep.length; k++) {
      graphs.add(raw.graphs().get(keep[k]));
      y[k] = raw.labels()[keep[k]];
    }
    return new GraphDataset(spec, graphs, y, raw.classNames());
  }
}
