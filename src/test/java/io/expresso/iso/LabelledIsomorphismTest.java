package io.expresso.iso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.LabeledGraph;
import org.junit.jupiter.api.Test;

/**
 * Labelled isomorphism compares label values, not just the shape of the label partition: the
 * pitfall that inflates duplicate counts when labels are only used to colour an initial partition.
 */
class LabelledIsomorphismTest {

  private static final Graph PATH = Graph.fromEdges(3, 0, 1, 1, 2); // middle vertex 1

  @Test
  void nodeLabelsWithTheSamePartitionButOtherValuesAreToldApart() {
    LabeledGraph a = new LabeledGraph(PATH, new int[] {1, 2, 1}, null, 0);
    LabeledGraph b = new LabeledGraph(PATH, new int[] {2, 1, 2}, null, 0); // same shape, swapped values
    LabeledGraph c = new LabeledGraph(PATH, new int[] {5, 7, 5}, null, 0); // same shape, new values
    LabeledGraph d = new LabeledGraph(Graph.fromEdges(3, 1, 0, 0, 2), new int[] {2, 1, 1}, null, 0); // a, relabelled
    assertThat(Isomorphism.isomorphic(a, b, true, false)).isFalse();
    assertThat(Isomorphism.isomorphic(a, c, true, false)).isFalse();
    assertThat(Isomorphism.isomorphic(a, d, true, false)).isTrue();
    assertThat(Isomorphism.isomorphic(a, b, false, false)).isTrue(); // without labels: same path
  }

  @Test
  void edgeLabelsWithTheSamePartitionButOtherValuesAreToldApart() {
    int[] slots12 = slots(PATH, 1, 2); // edge {0,1} label 1, edge {1,2} label 2
    LabeledGraph a = new LabeledGraph(PATH, null, slots12, null);
    LabeledGraph b = new LabeledGraph(PATH, null, slots(PATH, 2, 3), null);
    LabeledGraph reversed = new LabeledGraph(PATH, null, slots(PATH, 2, 1), null);
    assertThat(Isomorphism.isomorphic(a, b, false, true)).isFalse();
    assertThat(Isomorphism.isomorphic(a, reversed, false, true)).isTrue();
    assertThat(Isomorphism.isomorphic(a, b, false, false)).isTrue();
  }

  @Test
  void nodeAndEdgeLabelsTogether() {
    // Triangle 0-1-2 with one distinct node; the edge opposite to it carries label 9 or not.
    Graph tri = Graph.fromEdges(3, 0, 1, 1, 2, 0, 2);
    int[] nodes = {4, 3, 3};
    LabeledGraph opposite = new LabeledGraph(tri, nodes, edgeSlots(tri, new int[][] {{1, 2, 9}, {0, 1, 0}, {0, 2, 0}}), null);
    LabeledGraph incident = new LabeledGraph(tri, nodes, edgeSlots(tri, new int[][] {{0, 1, 9}, {1, 2, 0}, {0, 2, 0}}), null);
    assertThat(Isomorphism.isomorphic(opposite, incident, true, true)).isFalse();
    assertThat(Isomorphism.isomorphic(opposite, incident, false, true)).isTrue();
    assertThat(Isomorphism.isomorphic(opposite, incident, true, false)).isTrue();
  }

  @Test
  void missingLabelsAreAClearError() {
    LabeledGraph bare = LabeledGraph.unlabeled(PATH);
    assertThatThrownBy(() -> ColouredGraph.of(bare, true, false)).hasMessageContaining("node labels requested");
    assertThatThrownBy(() -> ColouredGraph.of(bare, false, true)).hasMessageContaining("edge labels requested");
  }

  /** CSR slot labels for the path's edges {0,1} and {1,2}. */
  private static int[] slots(Graph path, int first, int second) {
    return edgeSlots(path, new int[][] {{0, 1, first}, {1, 2, second}});
  }

  static int[] edgeSlots(Graph g, int[][] labelled) {
    int[] slots = new int[g.csrTargets().length];
    for (int v = 0; v < g.n(); v++) {
      for (int k = g.csrOffsets()[v]; k < g.csrOffsets()[v + 1]; k++) {
        int u = g.csrTargets()[k];
        for (int[] e : labelled) {
          if ((e[0] == u && e[1] == v) || (e[0] == v && e[1] == u)) {
            slots[k] = e[2];
          }
        }
      }
    }
    return slots;
  }
}
