package io.expresso.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbeddingsTest {

  @Test
  void splitsFlatFloatOutputIntoRowsExactly() {
    float[] flat = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    double[][] rows = Embeddings.rows(flat, 2);
    assertThat(rows).hasDimensions(3, 2);
    assertThat(rows[2][1]).isEqualTo((double) 0.6f);
    assertThat(Embeddings.every(rows, 0, 2)).isDeepEqualTo(new double[][] {rows[0], rows[2]});
    assertThat(Embeddings.every(rows, 1, 2)).isDeepEqualTo(new double[][] {rows[1]});
  }

  @Test
  void namesBadShapes() {
    assertThatThrownBy(() -> Embeddings.rows(new float[5], 2)).hasMessage("5 embedding values do not split into rows of d=2");
    assertThatThrownBy(() -> Embeddings.every(new double[2][1], 0, 0)).hasMessageContaining("step=0");
  }
}
