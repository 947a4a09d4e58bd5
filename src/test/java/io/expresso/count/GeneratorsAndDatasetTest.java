package io.expresso.count;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratorsAndDatasetTest {

  @TempDir Path dir;

  @Test
  void splitMixMatchesTheReferenceStream() {
    // reference values of SplitMix64 seeded with 0 (Steele et al.; also Vigna's splitmix64.c)
    SplitMix64 r = new SplitMix64(0);
    assertThat(r.nextLong()).isEqualTo(0xE220A8397B1DCDAFL);
    assertThat(r.nextLong()).isEqualTo(0x6E789E6AA1B965F4L);
    assertThat(r.nextLong()).isEqualTo(0x06C45D188009454FL);
  }

  @Test
  void nextIntStaysInRange() {
    SplitMix64 r = new SplitMix64(9);
    int[] hist = new int[7];
    for (int t = 0; t < 7000; t++) {
      hist[r.nextInt(7)]++;
    }
    for (int h : hist) {
      assertThat(h).isBetween(850, 1150);
    }
    assertThatThrownBy(() -> r.nextInt(0)).hasMessageContaining("positive");
  }

  @Test
  void generatorsAreSeededAndRespectTheirProbabilities() {
    assertThat(RandomGraphs.erdosRenyi(20, 0.3, 5)).isEqualTo(RandomGraphs.erdosRenyi(20, 0.3, 5));
    assertThat(RandomGraphs.erdosRenyi(20, 0.3, 5)).isNotEqualTo(RandomGraphs.erdosRenyi(20, 0.3, 6));
    assertThat(RandomGraphs.erdosRenyi(12, 0, 1).m()).isZero();
    assertThat(RandomGraphs.erdosRenyi(12, 1, 1).m()).isEqualTo(66);
    Graph blocks = RandomGraphs.stochasticBlockModel(new int[] {4, 5}, new double[] {1, 1}, 0, 3);
    assertThat(blocks.m()).isEqualTo(6 + 10);
    assertThat(blocks.adjacent(3, 4)).isFalse();
    assertThat(blocks.adjacent(4, 8)).isTrue();
    // the paper's SBM: mean edge count near its expectation 3·45·0.3 + 300·0.1 = 70.5
    double mean = 0;
    for (int s = 0; s < 200; s++) {
      mean += RandomGraphs.paperSbm(s).m() / 200.0;
    }
    assertThat(mean).isBetween(67.0, 74.0);
    assertThatThrownBy(() -> RandomGraphs.erdosRenyi(5, 1.5, 0)).hasMessage("p = 1.5 is not a probability in [0, 1]");
    assertThatThrownBy(() -> RandomGraphs.stochasticBlockModel(new int[] {2}, new double[] {0.1, 0.2}, 0.1, 0))
        .hasMessage("1 block sizes but 2 within-block probabilities");
  }

  @Test
  void datasetRoundTripsThroughGraph6AndCsv() throws IOException {
    CountingDataset d = CountingDataset.generate(5, 100, RandomGraphs::paperSbm);
    for (int g = 0; g < 5; g++) {
      assertThat(d.graphs().get(g)).isEqualTo(RandomGraphs.paperSbm(100 + g));
      for (Pattern p : Pattern.values()) {
        assertThat(d.count(g, p)).isEqualTo(InducedCounts.count(d.graphs().get(g), p));
      }
    }
    Path g6 = dir.resolve("sbm.g6");
    Path csv = dir.resolve("sbm.csv");
    d.write(g6, csv);
    List<String> lines = Files.readAllLines(csv);
    assertThat(lines.get(0)).isEqualTo("graph,triangle,2-path,4-clique,chordal-cycle,tailed-triangle,3-star,4-cycle,3-path");
    assertThat(lines).hasSize(6);
    CountingDataset back = CountingDataset.read(g6, csv);
    assertThat(back.graphs()).isEqualTo(d.graphs());
    assertThat(back.counts()).isDeepEqualTo(d.counts());
    assertThat(back.meanEdges()).isEqualTo(d.meanEdges());
  }

  @Test
  void datasetReadRejectsCountsThatDisagreeWithTheGraphs() throws IOException {
    CountingDataset d = CountingDataset.generate(2, 0, RandomGraphs::paperSbm);
    Path g6 = dir.resolve("d.g6");
    Path csv = dir.resolve("d.csv");
    d.write(g6, csv);
    List<String> lines = Files.readAllLines(csv);
    String[] cells = lines.get(2).split(",");
    cells[1] = String.valueOf(Long.parseLong(cells[1]) + 1);
    lines.set(2, String.join(",", cells));
    Files.write(csv, lines);
    assertThatThrownBy(() -> CountingDataset.read(g6, csv))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("d.csv line 3: triangle count '" + cells[1] + "' but the graph has " + d.count(1, Pattern.TRIANGLE));
  }
}
