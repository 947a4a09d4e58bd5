package io.expresso.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TU dataset format: a small hand-written dataset, write/read round trip, and every bad-input case. */
class TuDatasetTest {

  @TempDir Path dir;

  /** Two graphs: a triangle (vertices 1-3) and a path 4-5 with an isolated vertex 6. */
  private void writeGood() throws IOException {
    write("A", "1, 2", "2, 1", "2, 3", "3, 2", "1, 3", "3, 1", "4, 5", "5, 4");
    write("graph_indicator", "1", "1", "1", "2", "2", "2");
    write("graph_labels", "0", "1");
    write("node_labels", "7", "8", "9", "1", "2", "3");
    write("edge_labels", "4", "4", "5", "5", "6", "6", "3", "3");
  }

  private void write(String suffix, String... lines) throws IOException {
    Files.writeString(dir.resolve("DS_" + suffix + ".txt"), String.join("\n", lines) + "\n");
  }

  @Test
  void readsGraphsWithAllLabels() throws IOException {
    writeGood();
    List<LabeledGraph> graphs = TuDataset.read(dir, "DS");
    assertThat(graphs).hasSize(2);
    LabeledGraph a = graphs.get(0);
    assertThat(a.graph()).isEqualTo(Graph.fromEdges(3, 0, 1, 1, 2, 0, 2));
    assertThat(a.nodeLabels()).containsExactly(7, 8, 9);
    assertThat(a.graphLabel()).isEqualTo(0);
    assertThat(a.edgeLabel(0, 1)).isEqualTo(4);
    assertThat(a.edgeLabel(2, 1)).isEqualTo(5);
    assertThat(a.edgeLabel(0, 2)).isEqualTo(6);
    LabeledGraph b = graphs.get(1);
    assertThat(b.graph()).isEqualTo(Graph.fromEdges(3, 0, 1));
    assertThat(b.nodeLabels()).containsExactly(1, 2, 3);
    assertThat(b.graphLabel()).isEqualTo(1);
  }

  @Test
  void edgesListedInOneDirectionAreEnoughAndLabelFilesAreOptional() throws IOException {
    write("A", "1, 2", "2, 3");
    write("graph_indicator", "1", "1", "1");
    List<LabeledGraph> graphs = TuDataset.read(dir, "DS");
    assertThat(graphs.get(0).graph()).isEqualTo(Graph.fromEdges(3, 0, 1, 1, 2));
    assertThat(graphs.get(0).nodeLabels()).isNull();
    assertThat(graphs.get(0).graphLabel()).isNull();
  }

  @Test
  void writeThenReadRoundTrips() throws IOException {
    writeGood();
    List<LabeledGraph> graphs = TuDataset.read(dir, "DS");
    Path out = dir.resolve("copy");
    TuDataset.write(out, "DS", graphs);
    List<LabeledGraph> again = TuDataset.read(out, "DS");
    for (int i = 0; i < graphs.size(); i++) {
      assertThat(again.get(i).graph()).isEqualTo(graphs.get(i).graph());
      assertThat(again.get(i).nodeLabels()).isEqualTo(graphs.get(i).nodeLabels());
      assertThat(again.get(i).edgeLabels()).isEqualTo(graphs.get(i).edgeLabels());
      assertThat(again.get(i).graphLabel()).isEqualTo(graphs.get(i).graphLabel());
    }
  }

  @Test
  void missingFileIsNamed() throws IOException {
    writeGood();
    Files.delete(dir.resolve("DS_graph_indicator.txt"));
    assertThatThrownBy(() -> TuDataset.read(dir, "DS")).isInstanceOf(GraphFormatException.class)
        .hasMessageEndingWith("DS_graph_indicator.txt: required TU file is missing");
  }

  @Test
  void edgeAcrossGraphs() throws IOException {
    writeGood();
    write("A", "1, 2", "3, 4");
    write("edge_labels", "1", "1");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 2: edge joins vertex 3 of graph 1 to vertex 4 of graph 2");
  }

  @Test
  void outOfOrderIndicator() throws IOException {
    writeGood();
    write("graph_indicator", "1", "2", "1", "2", "2", "2");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_graph_indicator.txt line 3: graph id 1 out of order (expected 2 or 3;"
            + " vertices of a graph must be contiguous and ids start at 1)");
    write("graph_indicator", "2", "2", "2", "2", "2", "2");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessageStartingWith("DS_graph_indicator.txt line 1: graph id 2 out of order (expected 0 or 1;");
  }

  @Test
  void labelCountMismatches() throws IOException {
    writeGood();
    write("graph_labels", "0", "1", "1");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS")).hasMessage("DS_graph_labels.txt line 3: one too many, 3 labels for 2 graphs (DS_graph_indicator.txt)");
    writeGood();
    write("node_labels", "1", "2");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS")).hasMessage("DS_node_labels.txt: 2 labels for 6 vertices");
    writeGood();
    write("edge_labels", "1");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_edge_labels.txt: 1 labels for 8 lines of DS_A.txt");
  }

  @Test
  void selfLoopDuplicateAndOutOfRange() throws IOException {
    writeGood();
    Files.delete(dir.resolve("DS_edge_labels.txt"));
    write("A", "1, 2", "2, 2");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 2 (graph 1): self-loop at vertex 2");
    write("A", "1, 2", "2, 3", "1, 2");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 3 (graph 1): duplicate edge (1, 2)");
    write("A", "1, 2", "2, 7");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 2: vertex id 7 out of range 1..6");
    write("A", "1, 2", "2; 3");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 2: expected 'row, col', found '2; 3'");
    write("A", "1, x");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 1: expected a vertex id, found 'x'");
  }

  @Test
  void edgeLabelsMustAgreeAcrossDirectionsAndNonIntegersAreNamed() throws IOException {
    writeGood();
    write("edge_labels", "4", "9", "5", "5", "6", "6", "3", "3");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_A.txt line 2 (graph 1): edge label 9 differs from the label 4 of the reverse direction");
    writeGood();
    write("graph_labels", "0", "one");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_graph_labels.txt line 2: expected an integer, found 'one'");
    writeGood();
    Files.writeString(dir.resolve("DS_node_labels.txt"), "7\n\n8\n9\n1\n2\n3\n");
    assertThatThrownBy(() -> TuDataset.read(dir, "DS"))
        .hasMessage("DS_node_labels.txt line 2: blank line inside the file");
  }
}
