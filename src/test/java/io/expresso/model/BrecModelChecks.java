package io.expresso.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.Device;
import io.expresso.graph.Graph;
import io.expresso.suite.Constructions;
import io.expresso.suite.GraphPair;
import io.expresso.train.EvaluationSettings;
import io.expresso.train.PairEvaluation;
import io.expresso.train.PairEvaluator;
import io.expresso.train.TrainingSettings;
import java.util.List;

/**
 * The checks every test of one of BREC's models makes, in one place: its defaults against its BREC
 * script by the script's names ({@link #defaultsOf}), one embedding of width d per graph
 * ({@link #embed}, {@link #assertOneEmbeddingPerGraph}), a bad spec refused in one line
 * ({@link #assertRefusedInOneLine}), and the 3-WL-equivalent pair no subgraph GNN can separate
 * ({@link #assertRookAndShrikhandeAlike}).
 */
final class BrecModelChecks {

  private BrecModelChecks() {}

  /** The largest absolute difference between two embeddings of the same width. */
  static double maxDiff(float[] a, float[] b) {
    double d = 0;
    for (int k = 0; k < a.length; k++) {
      d = Math.max(d, Math.abs(a[k] - b[k]));
    }
    return d;
  }

  /** The embeddings of {@code graphs} by a model of {@code spec} freshly built from seed 3, on the CPU. */
  static float[][] embed(ModelSpec spec, Graph... graphs) {
    try (GraphModel m = GraphModel.create(spec, Head.EMBEDDING, Device.cpu(), 3)) {
      return m.embed(List.of(graphs));
    }
  }

  /**
   * {@code pair} judged through BREC's training and T² under {@code spec} at its defaults but for 8
   * relabelings and {@code epochs} epochs (seed 1, the CPU): a must/cannot verdict in seconds.
   */
  static PairEvaluation judgedQuickly(ModelSpec spec, GraphPair pair, int epochs) {
    EvaluationSettings s = EvaluationSettings.defaults(spec);
    return PairEvaluator.evaluate(pair, spec, s.withTraining(s.training().withQ(8).withEpochs(epochs)), 1L, Device.cpu());
  }

  /** {@code e} holds one row per graph, each {@code d} wide, none of it NaN. */
  static void assertOneEmbeddingPerGraph(float[][] e, int graphs, int d) {
    assertThat(e).hasNumberOfRows(graphs);
    for (float[] row : e) {
      assertThat(row).hasSize(d).doesNotContain(Float.NaN);
    }
  }

  /** Parsing {@code spec} fails with one line that contains every one of {@code fragments}. */
  static void assertRefusedInOneLine(String spec, String... fragments) {
    var thrown = assertThatThrownBy(() -> ModelSpec.parse(spec)).as(spec).isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("\n");
    for (String f : fragments) {
      thrown.hasMessageContaining(f);
    }
  }

  /** Two disjoint triangles: 1-WL equivalent to the 6-cycle, and disconnected. */
  static Graph twoTriangles() {
    return Graph.fromEdges(6, 0, 1, 1, 2, 2, 0, 3, 4, 4, 5, 5, 3);
  }

  /**
   * The 4×4 rook graph and the Shrikhande graph, both SRG(16, 6, 2, 2) and 3-WL equivalent: a model
   * bounded by 3-WL gives them the same embedding, within {@code 10×} the difference between the
   * rook graph and a relabelling of it (at least 1e-5).
   */
  static void assertRookAndShrikhandeAlike(ModelSpec spec) {
    Graph rook = Constructions.rook(4);
    float[][] e = embed(spec, rook, Constructions.shrikhande(), rook.relabel(rookRelabelling()));
    double noise = Math.max(1e-5, maxDiff(e[0], e[2]));
    assertThat(maxDiff(e[0], e[1])).isLessThan(10 * noise);
  }

  /** A relabelling of the 4×4 rook graph's 16 vertices (i ↦ 5i + 3 mod 16). */
  static int[] rookRelabelling() {
    int[] perm = new int[16];
    for (int i = 0; i < 16; i++) {
      perm[i] = (i * 5 + 3) % 16;
    }
    return perm;
  }

  /** Checks {@code a}'s default spec and training settings, each against its value in BREC's script, by its name there. */
  static Defaults defaultsOf(Architecture a) {
    return new Defaults(ModelSpec.defaults(a), TrainingSettings.defaults(a));
  }

  /** One assertion per setting, named as BREC's script names it; each returns this to chain the next. */
  record Defaults(ModelSpec spec, TrainingSettings training) {

    Defaults layers(String name, int v) {
      assertThat(spec.layers()).as(name).isEqualTo(v);
      return this;
    }

    Defaults hidden(String name, int v) {
      assertThat(spec.hidden()).as(name).isEqualTo(v);
      return this;
    }

    Defaults embedding(String name, int v) {
      assertThat(spec.embedding()).as(name).isEqualTo(v);
      return this;
    }

    Defaults radius(String name, int v) {
      assertThat(spec.radius()).as(name).isEqualTo(v);
      return this;
    }

    /** In DJL's convention: PyTorch's momentum 0.1 is DJL's 0.9, its 1.0 DJL's 0. */
    Defaults bnMomentum(String name, float v) {
      assertThat(spec.bnMomentum()).as(name).isEqualTo(v);
      return this;
    }

    Defaults batchSize(String name, int v) {
      assertThat(training.batchSize()).as(name).isEqualTo(v);
      return this;
    }

    Defaults epochs(String name, int v) {
      assertThat(training.epochs()).as(name).isEqualTo(v);
      return this;
    }

    Defaults learningRate(String name, float v) {
      assertThat(training.learningRate()).as(name).isEqualTo(v);
      return this;
    }

    Defaults weightDecay(String name, float v) {
      assertThat(training.weightDecay()).as(name).isEqualTo(v);
      return this;
    }

    Defaults lossThreshold(String name, double v) {
      assertThat(training.lossThreshold()).as(name).isEqualTo(v);
      return this;
    }

    /** The relabelled copies per graph (BREC's NUM_RELABEL). */
    Defaults relabelings(String name, int v) {
      assertThat(training.q()).as(name).isEqualTo(v);
      return this;
    }
  }
}
