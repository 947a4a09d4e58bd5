package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubgraphTablesTest {

  @Test
  void aTriangleAndAPathPackOneRowPerSubgraphNode() {
    // Triangle 0-1-2 (radius 1: every ball is the triangle; 6 subgraphs of 3 rows), then path 0-1-2
    // (pairs (0,1) 2 rows, (1,0) 3, (1,2) 3, (2,1) 2).
    Graph triangle = Graph.fromEdges(3, 0, 1, 1, 2, 2, 0);
    Graph path = Graph.fromEdges(3, 0, 1, 1, 2);
    SubgraphTables t = SubgraphTables.of(List.of(triangle, path), 1, I2GnnNetwork.Labels.HOP);
    assertThat(t.nodes()).isEqualTo(18 + 10);
    assertThat(t.pairs()).isEqualTo(10);
    assertThat(t.roots()).isEqualTo(6);
    assertThat(t.graphs()).isEqualTo(2);
    assertThat(t.rootOfPair()).containsExactly(0, 0, 1, 1, 2, 2, 3, 4, 4, 5);
    assertThat(t.graphOfRoot()).containsExactly(0, 0, 0, 1, 1, 1);
    assertThat(Arrays.copyOfRange(t.pairOfNode(), 15, 28)).containsExactly(5, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9);
    // each triangle subgraph holds all 6 directed edges; the path's 2 + 4 + 4 + 2
    assertThat(t.edgeFrom()).hasSize(6 * 6 + 12);
    // the first subgraph: root 0, neighbour 1 (labels 1, 2, 0), edges 0→1, 0→2, 1→0, 1→2, 2→0, 2→1 as row pairs
    assertThat(Arrays.copyOfRange(t.labels(), 0, 9)).containsExactly(0, 1, 0, 0, 0, 1, 1, 0, 0);
    assertThat(Arrays.copyOfRange(t.edgeFrom(), 0, 6)).containsExactly(0, 0, 1, 1, 2, 2);
    assertThat(Arrays.copyOfRange(t.edgeTo(), 0, 6)).containsExactly(1, 2, 0, 2, 0, 1);
    // the path's pair (1, 2) has rows 23-25 for vertices 0, 1, 2: edges 23↔24, 24↔25 only
    int first = 6 * 6 + 2 + 4;
    assertThat(Arrays.copyOfRange(t.edgeFrom(), first, first + 4)).containsExactly(23, 24, 24, 25);
    assertThat(Arrays.copyOfRange(t.edgeTo(), first, first + 4)).containsExactly(24, 23, 25, 24);
  }

  @Test
  void edgelessGraphsGiveOneLoneSubgraphPerVertexAndNoEdges() {
    SubgraphTables t = SubgraphTables.of(List.of(Graph.fromEdges(2)), 2, I2GnnNetwork.Labels.HOP);
    assertThat(t.nodes()).isEqualTo(2);
    assertThat(t.edgeFrom()).isEmpty();
    assertThat(t.pairOfNode()).containsExactly(0, 1);
    assertThat(t.labels()).containsExactly(0, 1, 0, 0, 1, 0); // each the root of its own subgraph
    assertThat(SubgraphTables.of(List.of(), 1, I2GnnNetwork.Labels.HOP).nodes()).isZero();
  }
}
