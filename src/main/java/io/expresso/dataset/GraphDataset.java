package io.expresso.dataset;

import io.expresso.graph.LabeledGraph;
import io.expresso.iso.ColouredGraph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A graph dataset for classification or regression. A classification dataset gives graph i the
 * class {@code labels[i]} in 0..{@code classes()}−1 ({@code classNames} says what each class was
 * called in the source); a regression dataset gives it the real target {@code targets[i]} (and has
 * no labels or class names). Vertices may carry discrete labels (TU node labels); the dataset maps
 * its distinct values, sorted, to indices 0..K−1 ({@link #nodeLabelIndices}), so every fold's model
 * gets the same K one-hot input columns.
 *
 * @param name what the dataset is (its spec, e.g. {@code csl} or {@code clean:tu:data/MUTAG})
 * @param graphs the graphs with whatever node and edge labels the source had
 * @param labels class index per graph; null for a regression dataset
 * @param classNames the source's label of each class index; empty for a regression dataset
 * @param targets real target per graph; null for a classification dataset
 * @param nodeLabelInputs whether models read the node labels (when the graphs have them): true by
 *     default, as the GIN and benchmarking papers feed them; false trains on structure alone
 *     ({@code tu:DIR,node-labels=false}). Isomorphism (copies, {@code clean:}) uses them either way
 */
public record GraphDataset(String name, List<LabeledGraph> graphs, int[] labels, List<String> classNames,
    double[] targets, boolean nodeLabelInputs) {

  public GraphDataset {
    if ((labels == null) == (targets == null)) {
      throw new IllegalArgumentException(name + ": a dataset has either class labels or regression targets, not "
          + (labels == null ? "neither" : "both"));
    }
    int given = labels != null ? labels.length : targets.length;
    if (graphs.size() != given) {
      throw new IllegalArgumentException(name + ": " + given + (labels != null ? " labels" : " targets") + " for "
          + graphs.size() + " graphs");
    }
    if (labels != null) {
      for (int i = 0; i < labels.length; i++) {
        if (labels[i] < 0 || labels[i] >= classNames.size()) {
          throw new IllegalArgumentException(name + ": graph " + i + " has class " + labels[i] + " of " + classNames.size());
        }
      }
    } else {
      if (!classNames.isEmpty()) {
        throw new IllegalArgumentException(name + ": a regression dataset has no class names");
      }
      for (int i = 0; i < targets.length; i++) {
        if (!Double.isFinite(targets[i])) {
          throw new IllegalArgumentException(name + ": graph " + i + " has the target " + targets[i]);
        }
      }
    }
    long labelled = graphs.stream().filter(g -> g.nodeLabels() != null).count();
    if (labelled != 0 && labelled != graphs.size()) {
      throw new IllegalArgumentException(name + ": " + labelled + " of " + graphs.size() + " graphs have node labels");
    }
    graphs = List.copyOf(graphs);
    classNames = List.copyOf(classNames);
  }

  /** A classification dataset whose node labels, if any, are model inputs. */
  public GraphDataset(String name, List<LabeledGraph> graphs, int[] labels, List<String> classNames) {
    this(name, graphs, labels, classNames, null, true);
  }

  /** A regression dataset whose node labels, if any, are model inputs. */
  public static GraphDataset regression(String name, List<LabeledGraph> graphs, double[] targets) {
    return new GraphDataset(name, graphs, null, List.of(), targets, true);
  }

  /** True when graphs carry real targets (a regressor is trained), false for class labels. */
  public boolean regression() {
    return targets != null;
  }

  public int size() {
    return graphs.size();
  }

  /** The number of classes; 0 for a regression dataset. */
  public int classes() {
    return classNames.size();
  }

  /** This dataset with node-label inputs switched on or off (graphs, labels and targets unchanged). */
  public GraphDataset withNodeLabelInputs(boolean on) {
    return new GraphDataset(name, graphs, labels, classNames, targets, on);
  }

  /** The distinct node-label values of the dataset's vertices, ascending; empty when the graphs have none. */
  public int[] nodeLabelValues() {
    TreeSet<Integer> values = new TreeSet<>();
    for (LabeledGraph g : graphs) {
      if (g.nodeLabels() != null) {
        for (int l : g.nodeLabels()) {
          values.add(l);
        }
      }
    }
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  /** How many distinct node labels the vertices carry (the one-hot width); 0 when the graphs have none. */
  public int nodeLabelCount() {
    return nodeLabelValues().length;
  }

  /** Whether models read node labels: the graphs have them and inputs are on. */
  public boolean usesNodeLabels() {
    return nodeLabelInputs && nodeLabelCount() > 0;
  }

  /**
   * Per graph of {@code indices}, each vertex's label as an index into {@link #nodeLabelValues}
   * (what the one-hot columns encode).
   *
   * @throws IllegalStateException when the graphs have no node labels
   */
  public List<int[]> nodeLabelIndices(int[] indices) {
    int[] values = nodeLabelValues();
    if (values.length == 0) {
      throw new IllegalStateException(name + " has no node labels");
    }
    List<int[]> out = new ArrayList<>(indices.length);
    for (int i : indices) {
      int[] raw = graphs.get(i).nodeLabels();
      int[] index = new int[raw.length];
      for (int v = 0; v < raw.length; v++) {
        index[v] = Arrays.binarySearch(values, raw[v]);
      }
      out.add(index);
    }
    return out;
  }

  /**
   * What the isomorphism audit compares per graph: the class index, or the target (copies agree
   * when their targets are equal).
   */
  public List<Object> auditLabels() {
    List<Object> out = new ArrayList<>(size());
    for (int i = 0; i < size(); i++) {
      out.add(labels != null ? (Object) labels[i] : (Object) targets[i]);
    }
    return out;
  }

  /**
   * Graph i as the isomorphism audit sees it: coloured by its node and edge labels where the
   * dataset has them, so "isomorphic copy" means what {@code expresso audit --node-labels
   * --edge-labels} means.
   */
  public ColouredGraph coloured(int i) {
    LabeledGraph g = graphs.get(i);
    return ColouredGraph.of(g, g.nodeLabels() != null, g.edgeLabels() != null);
  }
}
