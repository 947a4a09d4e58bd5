package io.expresso.model;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.List;

/**
 * What a model reads from a batch of graphs: the graphs and, for a model with node-label inputs
 * ({@link ModelSpec#nodeLabels}), every vertex's label as an index 0..K−1 that becomes a one-hot
 * input column ({@link NodeFeature}). A dataset maps its raw labels to these indices once, so every
 * fold's model sees the same columns.
 *
 * @param graphs the graphs, in batch order
 * @param nodeLabels per graph, one label index per vertex; null when the batch carries no labels
 */
public record GraphBatch(List<Graph> graphs, List<int[]> nodeLabels) {

  public GraphBatch {
    graphs = List.copyOf(graphs);
    if (nodeLabels != null) {
      if (nodeLabels.size() != graphs.size()) {
        throw new IllegalArgumentException(nodeLabels.size() + " node-label rows for " + graphs.size() + " graphs");
      }
      for (int i = 0; i < graphs.size(); i++) {
        int[] l = nodeLabels.get(i);
        if (l == null || l.length != graphs.get(i).n()) {
          throw new IllegalArgumentException("graph " + i + " of the batch has " + graphs.get(i).n() + " vertices but "
              + (l == null ? "no" : String.valueOf(l.length)) + " node labels");
        }
      }
      nodeLabels = List.copyOf(nodeLabels);
    }
  }

  /** Graphs without node labels. */
  public static GraphBatch of(List<Graph> graphs) {
    return new GraphBatch(graphs, null);
  }

  /** Graphs with a label index per vertex ({@code labels.get(i)[v]} for vertex v of graph i). */
  public static GraphBatch labelled(List<Graph> graphs, List<int[]> labels) {
    if (labels == null) {
      throw new IllegalArgumentException("labelled batch without labels");
    }
    return new GraphBatch(graphs, labels);
  }

  public boolean hasNodeLabels() {
    return nodeLabels != null;
  }

  public int size() {
    return graphs.size();
  }

  /** Graphs {@code from} (inclusive) to {@code to} (exclusive), with their labels. */
  public GraphBatch slice(int from, int to) {
    return new GraphBatch(graphs.subList(from, to), nodeLabels == null ? null : nodeLabels.subList(from, to));
  }

  /** Graphs at {@code indices}, in that order, with their labels. */
  public GraphBatch select(int[] indices) {
    List<Graph> g = new ArrayList<>(indices.length);
    List<int[]> l = nodeLabels == null ? null : new ArrayList<>(indices.length);
    for (int i : indices) {
      g.add(graphs.get(i));
      if (l != null) {
        l.add(nodeLabels.get(i));
      }
    }
    return new GraphBatch(g, l);
  }
}
