package io.expresso.suite;

import io.expresso.testing.SharedData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import io.expresso.iso.Isomorphism;
import io.expresso.wl.PairDistinguisher;
import io.expresso.wl.WlMethods;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrecLoaderTest {

  static final Path SHARED = SharedData.DIR;
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
  void excerptFactsOneWlNoneThreeWlExactly0_60_160() {
    PairDistinguisher oneWl = WlMethods.byName("1-wl");
    PairDistinguisher threeWl = WlMethods.byName("3-wl");
    for (String file : List.of("brec_excerpt.g6", "brec_excerpt.npy", "brec_excerpt_numpy1.npy")) {
      Suite s = excerpt(file);
      assertThat(s.pairs().filter(p -> oneWl.distinguishes(p.first(), p.second()))).isEmpty();
      assertThat(s.pairs().filter(p -> threeWl.distinguishes(p.first(), p.second())).map(GraphPair::index))
          .containsExactly(0, 60, 160);
      s.pairs().forEach(p -> assertThat(Isomorphism.isomorphic(p.first(), p.second())).isFalse());
    }
  }

  @Test
  void relabelingsAreIsomorphicToTheirGraph() {
    for (GraphPair p : excerpt("brec_excerpt.npy").pairs().toList()) {
      Relabelings r = p.relabelings();
      for (int i = 0; i < r.q(); i += 7) {
        assertThat(Isomorphism.isomorphic(r.first().get(i), p.first())).isTrue();
        assertThat(Isomorphism.isomorphic(r.second().get(i), p.second())).isTrue();
        assertThat(Isomorphism.isomorphic(r.reliabilityFirst().get(i), r.reliabilitySecond().get(i))).isTrue();
      }
    }
  }

  @Test
  void indexRangesAreAccepted() {
    int[] idx = SuiteSpecs.parseIndices("0, 60-62,110", "spec");
    assertThat(idx).containsExactly(0, 60, 61, 62, 110);
    assertThatThrownBy(() -> SuiteSpecs.parseIndices("5-3", "spec")).hasMessageContaining("indices '5-3' runs backwards");
  }

  @Test
  void npyHeaderIsCheckedPerTheFormatSpec(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + writeNpy(dir, "f8.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (128,), }")))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageStartingWith("f8.npy: NPY dtype '<f8' is not an array of strings; accepted: '|S<n>'");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + writeNpy(dir, "2d.npy", 2, "{'descr': '|O', 'fortran_order': False, 'shape': (2, 64), }")))
        .hasMessage("2d.npy: NPY array has shape (2, 64), 2 dimensions; expected a 1-D list of graph6 strings");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + writeNpy(dir, "v9.npy", 9, "{}")))
        .hasMessage("v9.npy: unsupported NPY format version 9.0 (supported: 1.0, 2.0, 3.0)");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + writeNpy(dir, "dict.npy", 1, "{'descr': '|O', 'shape': (128,)")))
        .hasMessageStartingWith("dict.npy: bad NPY header: ");
    // A version-2 header (4-byte length) is read like version 1; the missing pickle is then reported.
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + writeNpy(dir, "v2.npy", 2, "{'descr': '|O', 'fortran_order': False, 'shape': (128,), }")))
        .hasMessageStartingWith("v2.npy: cannot unpickle the NPY object array");
  }

  /** An NPY file with the given header and no payload. */
  private static Path writeNpy(Path dir, String name, int major, String header) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
    byte[] h = (header + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    out.write(h.length & 0xff);
    out.write(h.length >> 8);
    if (major >= 2) {
      out.write(0);
      out.write(0);
    }
    out.write(h);
    Path f = dir.resolve(name);
    Files.write(f, out.toByteArray());
    return f;
  }

  @Test
  void badSpecsAndFilesAreNamed(@TempDir Path dir) throws IOException {
    assertThatThrownBy(() -> SuiteSpecs.load("brec2:x.npy"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown suite spec 'brec2:x.npy'")
        .hasMessageContaining("pairs:<path.g6|path.npy>");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + dir.resolve("nope.npy")))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageContaining("nope.npy: suite file not found");
    assertThatThrownBy(() -> SuiteSpecs.load("brec:" + EXCERPT.resolve("brec_excerpt.g6") + "#indices=0,x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("indices 'x' is not a range A-B or a number A");
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

  @Test
  void brecFilesInEveryNumpyEncodingGiveTheSameSuite() {
    Suite text = SuiteSpecs.load("brec:" + NpyStringArrayTest.fixture("brec_one_pair.g6"));
    // |S is what BREC's own np.save writes; <U and pickled objects are the other ways to save the list.
    for (String file : List.of("brec_one_pair.npy", "brec_one_pair_unicode.npy", "brec_one_pair_object.npy")) {
      assertThat(SuiteSpecs.load("brec:" + NpyStringArrayTest.fixture(file)).pairs().toList())
          .as(file).isEqualTo(text.pairs().toList());
    }
    GraphPair pair = text.pairs().toList().get(0);
    assertThat(pair.index()).isZero();
    assertThat(pair.category()).isEqualTo("Basic");
    // The hexagon versus two triangles: 1-WL cannot tell them apart, 3-WL can.
    assertThat(WlMethods.byName("1-wl").distinguishes(pair.first(), pair.second())).isFalse();
    assertThat(WlMethods.byName("3-wl").distinguishes(pair.first(), pair.second())).isTrue();
    assertThat(pair.relabelings().q()).isEqualTo(32);
    assertThat(Isomorphism.isomorphic(pair.relabelings().second().get(31), pair.second())).isTrue();
  }

  @Test
  void emptyFilesAndPairFilesWithoutAPairAreErrors(@TempDir Path dir) throws IOException {
    Path empty = Files.write(dir.resolve("empty.g6"), new byte[0]);
    for (String form : List.of("brec:", "pairs:")) {
      assertThatThrownBy(() -> SuiteSpecs.load(form + empty))
          .isInstanceOf(GraphFormatException.class)
          .hasMessage("empty.g6: the file is empty");
      assertThatThrownBy(() -> SuiteSpecs.load(form + NpyStringArrayTest.fixture("empty.npy")))
          .isInstanceOf(GraphFormatException.class)
          .hasMessage("empty.npy: NPY array is empty (shape (0,)); expected graph6 strings");
    }
    Path blank = Files.writeString(dir.resolve("blank.g6"), "\n  \n");
    assertThatThrownBy(() -> SuiteSpecs.load("pairs:" + blank))
        .hasMessage("blank.g6: the file holds no graphs, only blank lines");
    Path one = Files.writeString(dir.resolve("one.g6"), "C~\n");
    assertThatThrownBy(() -> SuiteSpecs.load("pairs:" + one))
        .isInstanceOf(GraphFormatException.class)
        .hasMessage("one.g6: 1 graph; a pairs file needs at least one pair (two consecutive graphs)");
    Path oneNpy = NpyStringArrayTest.writeNpy(dir, "one.npy", 1,
        "{'descr': '|S2', 'fortran_order': False, 'shape': (1,), }", "C~".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(() -> SuiteSpecs.load("pairs:" + oneNpy))
        .hasMessage("one.npy: 1 graph; a pairs file needs at least one pair (two consecutive graphs)");
  }

  @Test
  void pairsFromNpyNameTheEntryOfABadGraph(@TempDir Path dir) throws IOException {
    byte[] data = "C~\0\0C\u00ac\0\0".getBytes(StandardCharsets.ISO_8859_1);
    Path f = NpyStringArrayTest.writeNpy(dir, "bad.npy", 1, "{'descr': '|S4', 'fortran_order': False, 'shape': (2,), }", data);
    assertThatThrownBy(() -> SuiteSpecs.load("pairs:" + f))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageStartingWith("bad.npy entry 1: invalid character");
  }

  /** BREC's raw category files (|S and <U, 1-D and 2-D), where the shared data is present. */
  @Test
  void brecRawCategoryFiles() {
    Path raw = SharedData.require("data/brec-raw");
    PairDistinguisher oneWl = WlMethods.byName("1-wl");
    Map<String, Integer> pairs = Map.of("basic.npy", 60, "str.npy", 50, "4vtx.npy", 20, "dr.npy", 20);
    pairs.forEach((file, count) -> {
      Suite s = SuiteSpecs.load("pairs:" + raw.resolve(file));
      assertThat(s.size()).as(file).isEqualTo(count);
      assertThat(s.categories()).extracting(Category::name).containsExactly(file.replace(".npy", ""));
      // Every BREC pair is 1-WL-equivalent: a decoding slip would show up here.
      assertThat(s.pairs().filter(p -> oneWl.distinguishes(p.first(), p.second()))).as(file).isEmpty();
    });
    for (String file : List.of("regular.npy", "extension.npy", "cfi.npy")) {
      assertThatThrownBy(() -> SuiteSpecs.load("pairs:" + raw.resolve(file)))
          .hasMessageContaining(file + ": NPY array has shape (")
          .hasMessageContaining(", 2), 2 dimensions; expected a 1-D list of graph6 strings");
    }
  }
}
