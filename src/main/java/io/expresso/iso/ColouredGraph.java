package io.expresso.iso;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import io.expresso.graph.LabeledGraph;

/**
 * A graph with one colour value per vertex: the input of {@link Canonizer}. Built from a
 * {@link LabeledGraph} with or without its node and edge labels; edge labels are handled by
 * subdividing every edge with a vertex coloured by the edge's label, so that colour-preserving
 * isomorphisms of the subdivision are exactly the label-preserving isomorphisms of the original.
 *
 * <p>Colours keep the label <em>values</em>: node vertices get colour {@code (0, label)}, edge
 * vertices {@code (1, label)}, packed into a long that orders by kind, then by label value.
 *
 * @param graph the structure (the subdivision when edge labels are used)
 * @param colours one value per vertex of {@code graph}
 */
public record ColouredGraph(Graph graph, long[] colours) {

  public ColouredGraph {
    if (colours.length != graph.n()) {
      throw new IllegalArgumentException(colours.length + " colours for " + graph.n() + " vertices");
    }
  }

  /** All vertices the same colour. */
  public static ColouredGraph uncoloured(Graph g) {
    return new ColouredGraph(g, new long[g.n()]);
  }

  /**
   * The coloured graph of {@code lg}, using its node labels and/or edge labels when asked.
   *
   * @throws IllegalArgumentException when asked for labels the graph does not carry
   */
  public static ColouredGraph of(LabeledGraph lg, boolean nodeLabels, boolean edgeLabels) {
    Graph g = lg.graph();
    if (nodeLabels && lg.nodeLabels() == null) {
      throw new IllegalArgumentException("node labels requested but the graph has none");
    }
    if (edgeLabels && lg.edgeLabels() == null) {
      throw new IllegalArgumentException("edge labels requested but the graph has none");
    }
    int n = g.n();
    if (!edgeLabels) {
      long[] colours = new long[n];
      for (int v = 0; v < n; v++) {
        colours[v] = nodeLabels ? colour(0, lg.nodeLabels()[v]) : colour(0, 0);
      }
      return new ColouredGraph(g, colours);
    }
    int[][] edges = g.edges();
    GraphBuilder b = new GraphBuilder(n + edges.length);
    long[] colours = new long[n + edges.length];
    for (int v = 0; v < n; v++) {
      colours[v] = nodeLabels ? colour(0, lg.nodeLabels()[v]) : colour(0, 0);
    }
    for (int e = 0; e < edges.length; e++) {
      int x = n + e;
      b.addEdge(edges[e][0], x);
      b.addEdge(x, edges[e][1]);
      colours[x] = colour(1, lg.edgeLabel(edges[e][0], edges[e][1]));
    }
    return new ColouredGraph(b.build(), colours);
  }

  /** Orders by kind, then by label value (signed). */
  private static long colour(int kind, int label) {
    return ((long) kind << 32) + ((long) label - Integer.MIN_VALUE);
  }

  public Certificate certificate() {
    return Canonizer.certificate(graph, colours);
  }
}
