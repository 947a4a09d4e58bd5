package io.expresso.count;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.iso.Canonizer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RobustnessDataTest {

  @Test
  void sbmSplitIsThirtyTwentyFiftyOfSeededExactlyCountedGraphs() {
    CountingSplit s = RobustnessData.sbm(200, 7);
    assertThat(s.train().graphs()).hasSize(60);
    assertThat(s.validation().graphs()).hasSize(40);
    assertThat(s.test().graphs()).hasSize(100);
    for (CountingDataset part : List.of(s.train(), s.validation(), s.test())) {
      for (int g = 0; g < part.graphs().size(); g++) {
        Graph graph = part.graphs().get(g);
        assertThat(graph.n()).isEqualTo(30);
        assertThat(part.counts()[g]).containsExactly(InducedCounts.countAll(graph));
      }
    }
    // Same seed, same data; the parts together are the generated graphs, each once.
    CountingSplit again = RobustnessData.sbm(200, 7);
    assertThat(encode(again.test().graphs())).isEqualTo(encode(s.test().graphs()));
    Set<String> all = new HashSet<>();
    all.addAll(encode(s.train().graphs()));
    all.addAll(encode(s.validation().graphs()));
    all.addAll(encode(s.test().graphs()));
    Set<String> generated = new HashSet<>();
    for (int r = 0; r < 200; r++) {
      generated.add(Graph6.encode(RandomGraphs.paperSbm(7 + r)));
    }
    assertThat(all).isEqualTo(generated);
  }

  @Test
  void sbmEdgeDensityMatchesTheModel() {
    // E[m] = 10·9/2·(0.2+0.3+0.4) + 3·100·0.1 = 40.5 + 30 = 70.5
    CountingSplit s = RobustnessData.sbm(400, 1);
    double mean = (s.train().meanEdges() * 120 + s.validation().meanEdges() * 80 + s.test().meanEdges() * 200) / 400;
    assertThat(mean).isBetween(68.5, 72.5);
  }

  @Test
  void erdosRenyiDatasetsDifferInDensityAndLeakageMatchesCanonicalForms() {
    CountingSplit d1 = RobustnessData.erdosRenyi(300, RobustnessData.ER_IN, 3);
    CountingSplit d2 = RobustnessData.erdosRenyi(300, RobustnessData.ER_OOD, 3);
    assertThat(d1.name()).isEqualTo("er-0.3");
    assertThat(d2.name()).isEqualTo("er-0.8");
    assertThat(d1.test().meanEdges()).isBetween(11.5, 15.5); // 45 · 0.3 = 13.5
    assertThat(d2.test().meanEdges()).isBetween(34.0, 38.0); // 45 · 0.8 = 36
    for (CountingSplit s : List.of(d1, d2)) {
      // Independent check of the leakage report: canonical forms of train against test.
      Set<String> trainForms = new HashSet<>();
      s.train().graphs().forEach(g -> trainForms.add(Canonizer.certificate(g).toString()));
      int leaked = 0;
      for (Graph g : s.test().graphs()) {
        if (trainForms.contains(Canonizer.certificate(g).toString())) {
          leaked++;
        }
      }
      assertThat(s.leakage().leakedTest().length).isEqualTo(leaked);
      assertThat(s.leakage().test()).isEqualTo(150);
    }
  }

  @Test
  void tooFewGraphsForTheSplitIsAClearError() {
    assertThatThrownBy(() -> RobustnessData.sbm(1, 1)).hasMessageContaining("too few");
  }

  private static List<String> encode(List<Graph> graphs) {
    return graphs.stream().map(Graph6::encode).toList();
  }
}
