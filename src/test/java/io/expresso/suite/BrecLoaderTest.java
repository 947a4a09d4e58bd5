package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrecLoaderTest {

  static final Path SHARED = Files.isDirectory(Path.of("../shared")) ? Path.of("../shared") : Path.of("/work/shared");
  static final Path EXCERPT = SHARED.resolve("data/brec-excerpt");
  static final String INDICES = "#indices=0,60,110,160";

  static Suite excerpt(String file) {
    return SuiteSpecs.load("brec:" + EXCERPT.resolve(file) + INDICES);
  }

  @Test
  void allThreeEncodingsGiveTheSamePairsAndRelabelings() {
    Suite g6 = excerpt("brec_excerpt.g6");
    Suite npy2 = excerpt("brec_excerpt.npy");
    Suite npy1 = excerpt("brec_excerpt_numpy1.npy");
    for (Suite s : List.of(npy2, npy1)) {
      assertThat(s.size()).isEqualTo(4);
      assertThat(s.pairs().toList()).isEqualTo(g6.pairs().toList());
    }
  }

  @Test
  void excerptPairsCarryOfficialIndicesAndCategories() {
    Suite s = excerpt("brec_excerpt.npy");
    assertThat(s.pairs().map(GraphPair::index)).containsExactly(0, 60, 110, 160);
    assertThat(s.pairs().map(GraphPair::category)).containsExactly("Basic", "Regular", "Regular", "Extension");
    assertThat(s.categories()).extracting(Category::name).containsExactly("Basic", "Regular", "Extension");
    assertThat(s.categories()).extracting(c -> c.pairs().size()).containsExactly(1, 2, 1);
  }

  @Test
  void withoutIndicesPairsAreNumberedInFileOrderAndKeepTheRangesThatFit() {
    Suite s = SuiteSpecs.load("brec:" + EXCERPT.resolve("brec_excerpt.g6"));
    assertThat(s.pairs().map(GraphPair::index)).containsExactly(0, 1, 2, 3);
    assertThat(s.categories()).extracting(Category::name).containsExactly("Basic");
  }

  @Test
  void relabelingsFollowTheLayout() throws IOException {
    List<Graph> entries = Graph6.readFile(EXCERPT.resolve("brec_excerpt.g6"));
    Suite s = excerpt("brec_excerpt.g6");
    List<GraphPair> pairs = s.pairs().toList();
    int total = 4;
    for (int p = 0; p < total; p++) {
      GraphPair pair = pairs.get(p);
      Relabelings r = pair.relabelings();
      assertThat(r.q()).isEqualTo(32);
      assertThat(pair.first()).isEqualTo(entries.get(p * 64));
      assertThat(pair.second()).isEqualTo(entries.get(p * 64 + 1));
      assertThat(r.first().get(5)).isEqualTo(entries.get(p * 64 + 10));
      assertThat(r.second().get(31)).isEqualTo(entries.get(p * 64 + 63));
      assertThat(r.reliabilityFirst().get(0)).isEqualTo(entries.get((total + p) * 64));
      assertThat(r.reliabilitySecond().get(31)).isEqualTo(entries.get((total + p) * 64 + 63));
    }
  }

  @Test
  void badSpecsAndFilesAreNamed(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> SuiteSpecs.load("brec2:x.npy"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown suite spec 'brec2:x.npy'")
        .hasMessageContaining("pairs:<path.g6>");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + dir.resolve("nope.npy")))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("nope.npy: suite file not found");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + EXCERPT.resolve("brec_excerpt.g6") + "#indices=0,x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x' is not a pair index");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + EXCERPT.resolve("brec_excerpt.g6") + "#indices=0,1,2"))
        .hasMessageContaining("brec_excerpt.g6: 3 pair indices given for 4 pairs");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + EXCERPT.resolve("brec_excerpt.g6") + "#indices=0,1,2,400"))
        .hasMessageContaining("pair index 400 is outside the official BREC range 0..399");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + EXCERPT.resolve("brec_excerpt.g6") + "#indices=0,1,1,2"))
        .hasMessageContaining("pair index 1 given twice");

    Path short6 = dir.resolve("short.g6");
    List<String> lines = Files.readAllLines(EXCERPT.resolve("brec_excerpt.g6")).subList(0, 100);
    Files.write(short6, lines);
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + short6))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("short.g6: 100 entries is not a positive multiple of 128");

    // Shifting the file by one entry mixes G and H in a block: caught as a layout error.
    Path shifted = dir.resolve("shifted.g6");
    List<String> all = Files.readAllLines(EXCERPT.resolve("brec_excerpt.g6"));
    List<String> rotated = new java.util.ArrayList<>(all.subList(1, all.size()));
    rotated.add(all.get(0));
    Files.write(shifted, rotated);
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + shifted))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("shifted.g6: relabelings of");

    Path notNpy = dir.resolve("bad.npy");
    byte[] bytes = Files.readAllBytes(EXCERPT.resolve("brec_excerpt.npy"));
    Files.write(notNpy, java.util.Arrays.copyOf(bytes, 300));
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + notNpy))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("bad.npy");
  }

  @Test
  void badGraph6EntryIsLocated(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("broken.g6");
    List<String> lines = new java.util.ArrayList<>(Files.readAllLines(EXCERPT.resolve("brec_excerpt.g6")));
    lines.set(6, "I!!");
    Files.write(f, lines);
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + f))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageStartingWith("broken.g6 line 7: invalid character '!'");
  }

  @Test
  void pairsSpecFormsOneCategoryNamedAfterTheFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("mine.g6");
    Files.writeString(f, "C~\nCr\nDQc\nD?{\n");
    Suite s = SuiteSpecs.load("pairs:" + f);
    assertThat(s.categories()).extracting(Category::name).containsExactly("mine");
    assertThat(s.pairs().map(GraphPair::index)).containsExactly(0, 1);
    assertThat(s.pairs().toList().get(1).first()).isEqualTo(Graph6.decode("DQc"));
    assertThat(s.pairs().toList().get(0).relabelings()).isNull();

    Files.writeString(f, "C~\nCr\nDQc\n");
    assertThatThrownBy(() -> SuiteSpecs.load("pairs:" + f))
        .isInstanceOf(GraphFormatException.class)
        .hasMessage("mine.g6: 3 graphs, an odd number; consecutive lines must form pairs");
  }
}
