package io.expresso.graph;

import java.util.Arrays;

/**
 * A graph with optional discrete labels, as graph datasets carry them.
 *
 * @param graph the structure
 * @param nodeLabels one label per vertex, or {@code null} when the dataset has none
 * @param edgeLabels one label per CSR slot (slot k of {@code graph.csrTargets()} labels the edge
 *     from its row vertex to {@code csrTargets()[k]}; both directions carry the same label), or
 *     {@code null}
 * @param graphLabel the graph's target label, or {@code null}
 */
public record LabeledGraph(Graph graph, int[] nodeLabels, int[] edgeLabels, Integer graphLabel) {

  public LabeledGraph {
    if (nodeLabels != null && nodeLabels.length != graph.n()) {
      throw new IllegalArgumentException(nodeLabels.length + " node labels for " + graph.n() + " vertices");
    }
    if (edgeLabels != null && edgeLabels.length != graph.csrTargets().length) {
      throw new IllegalArgumentException(edgeLabels.length + " edge slots for " + graph.m() + " edges");
    }
  }

  public static LabeledGraph unlabeled(Graph graph) {
    return new LabeledGraph(graph, null, null, null);
  }

  /** The label of edge {u,v}; the edge must exist and edge labels must be present. */
  public int edgeLabel(int u, int v) {
    int[] off = graph.csrOffsets();
    int k = Arrays.binarySearch(graph.csrTargets(), off[u], off[u + 1], v);
    if (k < 0) {
      throw new IllegalArgumentException("no edge {" + u + ", " + v + "}");
    }
    return edgeLabels[k];
  }
}
