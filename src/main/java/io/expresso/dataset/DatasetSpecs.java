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
 * {@code planted[:seed=N]}, {@code regress[:seed=N]} (regression), {@code tu:DIR[,options]} (a TU
 * dataset directory on the reader's disk, named by its last path element, e.g.
 * {@code tu:data/MUTAG}), and {@code clean:SPEC}, the isomorphism audit's clean version of any of
 * them ({@link CleanDataset}: one graph per orbit, orbits with conflicting labels or targets
 * dropped).
 *
 * <p>A TU directory's graphs are classified by {@code DS_graph_labels.txt} or regressed on
 * {@code DS_graph_attributes.txt} (one real number per graph), whichever it has; when it has both,
 * {@code target=labels} or {@code target=attributes} chooses. Its node labels, if any, are model
 * inputs unless {@code node-labels=false}. Options follow the directory after commas:
 * {@code tu:data/ZINC,target=attributes,node-labels=false}.
 */
public final class DatasetSpecs {

  public static final String FORMS = "csl[:seed=N], planted[:seed=N], regress[:seed=N],"
      + " tu:DIR[,node-labels=false][,target=labels|attributes] (a TU dataset directory), clean:SPEC";

  /** The options a {@code tu:} spec takes after its directory. */
  record TuOptions(Path dir, boolean nodeLabels, String target) {}

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
      return tu(s, tuOptions(s));
    }
    String kind = lower.contains(":") ? lower.substring(0, lower.indexOf(':')) : lower;
    long seed = seed(s);
    return switch (kind) {
      case "csl" -> CslDataset.build(s, seed);
      case "planted" -> PlantedDuplicates.build(s, seed);
      case "regress" -> TriangleRegression.build(s, seed);
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
      tuOptions(s);
    } else {
      String kind = lower.contains(":") ? lower.substring(0, lower.indexOf(':')) : lower;
      if (!kind.equals("csl") && !kind.equals("planted") && !kind.equals("regress")) {
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

  /** The directory and options of {@code tu:DIR[,key=value...]}. */
  static TuOptions tuOptions(String spec) {
    String[] parts = spec.trim().substring(3).split(",");
    String dir = parts[0].strip();
    if (dir.isEmpty() || Path.of(dir).getFileName() == null) {
      throw new IllegalArgumentException("dataset '" + spec + "': tu: needs a directory such as data/MUTAG");
    }
    boolean nodeLabels = true;
    String target = "";
    for (int i = 1; i < parts.length; i++) {
      String kv = parts[i].strip();
      int eq = kv.indexOf('=');
      String key = eq < 0 ? kv : kv.substring(0, eq).strip().toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : kv.substring(eq + 1).strip().toLowerCase(Locale.ROOT);
      switch (key) {
        case "node-labels" -> nodeLabels = switch (value) {
          case "true" -> true;
          case "false" -> false;
          default -> throw new IllegalArgumentException("dataset '" + spec + "': node-labels must be true or false, got '"
              + value + "'");
        };
        case "target" -> {
          if (!value.equals("labels") && !value.equals("attributes")) {
            throw new IllegalArgumentException("dataset '" + spec + "': target must be labels (classification) or"
                + " attributes (regression), got '" + value + "'");
          }
          target = value;
        }
        default -> throw new IllegalArgumentException("dataset '" + spec + "': unknown tu: option '" + kv
            + "' (known: node-labels=false, target=labels|attributes)");
      }
    }
    return new TuOptions(Path.of(dir), nodeLabels, target);
  }

  private static GraphDataset tu(String spec, TuOptions options) throws IOException {
    Path dir = options.dir();
    Path name = dir.getFileName();
    Path parent = dir.getParent() == null ? Path.of(".") : dir.getParent();
    List<LabeledGraph> graphs = TuDataset.read(parent, name.toString());
    double[] attributes = TuDataset.readGraphAttributes(parent, name.toString(), graphs.size());
    boolean labelled = graphs.stream().anyMatch(g -> g.graphLabel() != null);
    String labelFile = name + "_graph_labels.txt";
    String attributeFile = name + "_graph_attributes.txt";
    boolean regression = switch (options.target()) {
      case "labels" -> {
        if (!labelled) {
          throw new GraphFormatException(dir + ": target=labels but there is no " + labelFile);
        }
        yield false;
      }
      case "attributes" -> {
        if (attributes == null) {
          throw new GraphFormatException(dir + ": target=attributes but there is no " + attributeFile);
        }
        yield true;
      }
      default -> {
        if (labelled && attributes != null) {
          throw new IllegalArgumentException("dataset '" + spec + "': " + dir + " has both " + labelFile + " and "
              + attributeFile + "; add ,target=labels (classification) or ,target=attributes (regression)");
        }
        if (!labelled && attributes == null) {
          throw new GraphFormatException(dir + ": neither " + labelFile + " (classes) nor " + attributeFile
              + " (regression targets)");
        }
        yield attributes != null;
      }
    };
    if (regression) {
      return GraphDataset.regression(spec, graphs, attributes).withNodeLabelInputs(options.nodeLabels());
    }
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
    return new GraphDataset(spec, graphs, labels, classes.stream().map(String::valueOf).toList(), null,
        options.nodeLabels());
  }

  /** The audit's clean version: what {@code expresso audit --clean-out} writes for the same data. */
  static GraphDataset clean(String spec, GraphDataset raw) {
    List<ColouredGraph> coloured = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      coloured.add(raw.coloured(i));
    }
    int[] keep = CleanDataset.keep(Orbits.of(coloured), raw.auditLabels());
    List<LabeledGraph> graphs = new ArrayList<>(keep.length);
    int[] y = raw.regression() ? null : new int[keep.length];
    double[] t = raw.regression() ? new double[keep.length] : null;
    for (int k = 0; k < keep.length; k++) {
      graphs.add(raw.graphs().get(keep[k]));
      if (y != null) {
        y[k] = raw.labels()[keep[k]];
      } else {
        t[k] = raw.targets()[keep[k]];
      }
    }
    return new GraphDataset(spec, graphs, y, raw.classNames(), t, raw.nodeLabelInputs());
  }
}
