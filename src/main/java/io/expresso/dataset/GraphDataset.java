package io.expresso.dataset;

import io.expresso.graph.LabeledGraph;
import io.expresso.iso.ColouredGraph;
import java.util.List;

/**
 * A labelled graph dataset for classification: graph i has class {@code labels[i]} in
 * 0..{@code classes()}−1; {@code classNames} says what each class was called in the source.
 *
 * @param name what the dataset is (its spec, e.g. {@code csl} or {@code clean:tu:data/MUTAG})
 * @param graphs the graphs with whatever node and edge labels the source had
 * @param labels class index per graph
 * @param classNames the source's label of each class index
 */
public record GraphDataset(String name, List<LabeledGraph> graphs, int[] labels, List<String> classNames) {

  public GraphDataset {
    if (graphs.size() != labels.length) {
      throw new IllegalArgumentException(name + ": " + labels.length + " labels for " + graphs.size() + " graphs");
    }
    for (int i = 0; i < labels.length; i++) {
      if (labels[i] < 0 || labels[i] >= classNames.size()) {
        throw new IllegalArgumentException(name + ": graph " + i + " has class " + labels[i] + " of " + classNames.size());
      }
    }
    graphs = List.copyOf(graphs);
    classNames = List.copyOf(classNames);
  }

  public int size() {
    return graphs.size();
  }

  public int classes() {
    return classNames.size();
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
