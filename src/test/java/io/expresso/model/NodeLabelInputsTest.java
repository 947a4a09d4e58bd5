package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TU node labels as one-hot model inputs: the encoding, the spec key, and who reads them. */
class NodeLabelInputsTest {

  private static final Graph PATH = Graph.fromEdges(3, 0, 1, 1, 2);
  private static final Graph EDGE = Graph.fromEdges(2, 0, 1);

  @Test
  void theTableHasTheConstantThenAOneHotRowOfTheLabelThenTheEncodings() {
    GraphBatch batch = GraphBatch.labelled(List.of(PATH, EDGE), List.of(new int[] {2, 0, 1}, new int[] {1, 1}));
    float[] x = NodeFeature.table(batch, 3, 0, null);
    assertThat(NodeFeature.width(3, 0)).isEqualTo(4);
    assertThat(x).containsExactly(
        1, 0, 0, 1, // path vertex 0: label index 2
        1, 1, 0, 0, // path vertex 1: label index 0
        1, 0, 1, 0, // path vertex 2: label index 1
        1, 0, 1, 0, // edge vertex 0: label index 1
        1, 0, 1, 0);
    // with k = 2 encodings the encodings follow the one-hot columns, as NodeFeature.pe gives them
    float[] withPe = NodeFeature.table(batch, 3, 2, new float[] {1, -1});
    float[][] pe = NodeFeature.pe(PATH, 2, new float[] {1, -1});
    int width = NodeFeature.width(3, 2);
    for (int v = 0; v < 3; v++) {
      assertThat(withPe[v * width]).isEqualTo(1f);
      assertThat(withPe[v * width + 4]).isEqualTo(pe[v][0]);
      assertThat(withPe[v * width + 5]).isEqualTo(pe[v][1]);
    }
    assertThat(withPe[1 + 2]).isEqualTo(1f); // vertex 0's label index 2 in the one-hot block
    // without labels the table is the constant and the encodings alone, as before
    assertThat(NodeFeature.table(GraphBatch.of(List.of(EDGE)), 0, 0, null)).containsExactly(1, 1);
  }

  @Test
  void labelsOutsideTheColumnsOrMissingAreRefused() {
    GraphBatch bad = GraphBatch.labelled(List.of(EDGE), List.of(new int[] {0, 3}));
    assertThatThrownBy(() -> NodeFeature.table(bad, 3, 0, null))
        .hasMessageContaining("vertex 1 of graph 0").hasMessageContaining("outside 0..2");
    assertThatThrownBy(() -> NodeFeature.table(GraphBatch.of(List.of(EDGE)), 3, 0, null))
        .hasMessageContaining("batch carries none");
    assertThatThrownBy(() -> GraphBatch.labelled(List.of(PATH), List.of(new int[] {0})))
        .hasMessageContaining("3 vertices but 1 node labels");
  }

  @Test
  void onlyGinTakesTheKeyAndTheTextFormRoundTrips() {
    ModelSpec s = ModelSpec.parse("gin:layers=2,hidden=8,node-labels=7");
    assertThat(s.nodeLabels()).isEqualTo(7);
    assertThat(s.toText()).endsWith(",node-labels=7");
    assertThat(ModelSpec.parse(s.toText())).isEqualTo(s);
    assertThat(ModelSpec.parse("gin").toText()).doesNotContain("node-labels");
    for (String other : List.of("ppgn", "ngnn-de", "gsn", "ds-gnn", "dss-gnn", "kp-gnn", "i2gnn")) {
      assertThatThrownBy(() -> ModelSpec.parse(other + ":node-labels=3"))
          .hasMessageContaining("node-labels is a gin option, not " + other).hasMessageNotContaining("\n");
    }
  }

  @Test
  void ginReadsTheLabelsAndItsCheckpointKeepsTheirColumns(@TempDir Path dir) throws Exception {
    ModelSpec spec = ModelSpec.parse("gin:layers=2,hidden=8,d=4,node-labels=2");
    Graph c4 = Constructions.cycle(4);
    GraphBatch a = GraphBatch.labelled(List.of(c4), List.of(new int[] {0, 0, 0, 0}));
    GraphBatch b = GraphBatch.labelled(List.of(c4), List.of(new int[] {1, 1, 1, 1}));
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 3)) {
      float[] ea = m.embed(a)[0];
      float[] eb = m.embed(b)[0];
      double diff = 0;
      for (int k = 0; k < 4; k++) {
        diff = Math.max(diff, Math.abs(ea[k] - eb[k]));
      }
      assertThat(diff).as("same structure, other labels").isGreaterThan(1e-4);
      // a labelled model needs labels; an unlabelled one refuses them
      assertThatThrownBy(() -> m.embed(List.of(c4))).hasMessageContaining("reads 2 node labels");
      Path file = dir.resolve("gin.ckpt");
      m.save(file);
      try (GraphModel back = GraphModel.load(file, Device.cpu())) {
        assertThat(back.spec()).isEqualTo(spec);
        float[] again = back.embed(a)[0];
        for (int k = 0; k < 4; k++) {
          assertThat(again[k]).isCloseTo(ea[k], within(1e-5f));
        }
      }
    }
    try (GraphModel plain = GraphModel.create(ModelSpec.parse("gin:layers=1,hidden=4"), Head.EMBEDDING, Device.cpu(), 0)) {
      assertThatThrownBy(() -> plain.embed(a)).hasMessageContaining("reads no node labels");
    }
  }
}
