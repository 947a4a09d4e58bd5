package io.expresso.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.iso.Canonizer;
import io.expresso.iso.Certificate;
import io.expresso.metrics.ExternalTools;
import io.expresso.suite.Category;
import io.expresso.suite.GraphPair;
import io.expresso.suite.NpyStringArray;
import io.expresso.suite.Suite;
import io.expresso.suite.SuiteSpecs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code expresso suite build-brec} on BREC's raw category files (../shared/data/brec-raw): the
 * official layout and categories, relabelings true to the raw graphs, a file NumPy reads, and the
 * published 3-WL counts on the result. The full file is built once for the class.
 */
class SuiteBuildBrecTest {

  static final Path SHARED = io.expresso.testing.SharedData.DIR;
  static final Path RAW = SHARED.resolve("data/brec-raw");
  static final int Q = 32;
  static final int PAIRS = 400;

  /** The official categories of the full file, in order. */
  static final Map<String, Integer> OFFICIAL = ordered(
      "Basic", 60, "Regular", 100, "Extension", 100, "CFI", 100, "4-Vertex Condition", 20, "Distance Regular", 20);

  @TempDir static Path dir;
  static Path npy;
  static String buildOutput;
  static List<String> entries;

  @BeforeAll
  static void buildTheFullFile() {
    assertThat(RAW).as("BREC raw category files (shared data)").isDirectory();
    npy = dir.resolve("brec_v3.npy");
    Result r = run("suite", "build-brec", "--raw", RAW.toString(), "--out", npy.toString(), "--seed", "7");
    assertThat(r.code()).as(r.err()).isZero();
    buildOutput = r.out();
    try {
      entries = NpyStringArray.read(npy);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Result(code, out.toString(), err.toString().strip());
  }

  @Test
  void fullFileHas400PairsInTheOfficialCategories() {
    assertThat(entries).hasSize(PAIRS * 4 * Q);
    assertThat(buildOutput).contains("BREC variant full (brec_v3.npy), 400 pairs (Basic 60, Regular 100, Extension 100,"
        + " CFI 100, 4-Vertex Condition 20, Distance Regular 20), q 32, seed 7, 51200 graphs")
        .contains("read it with --suite 'brec:" + npy + "'");
    Suite s = SuiteSpecs.load("brec:" + npy);
    assertThat(counts(s)).isEqualTo(OFFICIAL);
    assertThat(s.pairs().map(GraphPair::index)).containsExactlyElementsOf(
        java.util.stream.IntStream.range(0, PAIRS).boxed().toList());
  }

  @Test
  void firstRelabelingOfEveryBlockIsTheRawGraphAsGiven() throws Exception {
    List<String> raw = rawStrings();
    for (int p = 0; p < PAIRS; p++) {
      assertThat(entries.get(p * 2 * Q)).as("pair %d G", p).isEqualTo(raw.get(2 * p));
      assertThat(entries.get(p * 2 * Q + 1)).as("pair %d H", p).isEqualTo(raw.get(2 * p + 1));
      String reliabilityFirst = entries.get((PAIRS + p) * 2 * Q);
      assertThat(reliabilityFirst).as("pair %d reliability block", p).isIn(raw.get(2 * p), raw.get(2 * p + 1));
    }
  }

  @Test
  void everyRelabelingIsIsomorphicToItsRawGraphAndDistinctInItsBlock() throws Exception {
    List<String> raw = rawStrings();
    int reliabilityOfH = 0;
    for (int p = 0; p < PAIRS; p++) {
      Certificate g = Canonizer.certificate(Graph6.decode(raw.get(2 * p)));
      Certificate h = Canonizer.certificate(Graph6.decode(raw.get(2 * p + 1)));
      assertThat(g).as("pair %d is non-isomorphic", p).isNotEqualTo(h);
      Set<String> gBlock = new HashSet<>();
      Set<String> hBlock = new HashSet<>();
      for (int i = 0; i < 2 * Q; i += 2) {
        String gi = entries.get(p * 2 * Q + i);
        String hi = entries.get(p * 2 * Q + i + 1);
        assertThat(Canonizer.certificate(Graph6.decode(gi))).as("pair %d G relabeling %d", p, i / 2).isEqualTo(g);
        assertThat(Canonizer.certificate(Graph6.decode(hi))).as("pair %d H relabeling %d", p, i / 2).isEqualTo(h);
        gBlock.add(gi);
        hBlock.add(hi);
      }
      assertThat(gBlock).as("pair %d G relabelings distinct", p).hasSize(Q);
      assertThat(hBlock).as("pair %d H relabelings distinct", p).hasSize(Q);

      List<String> block = entries.subList((PAIRS + p) * 2 * Q, (PAIRS + p + 1) * 2 * Q);
      Certificate of = block.get(0).equals(raw.get(2 * p)) ? g : h;
      reliabilityOfH += of == h ? 1 : 0;
      for (int i = 0; i < block.size(); i++) {
        assertThat(Canonizer.certificate(Graph6.decode(block.get(i)))).as("pair %d reliability %d", p, i).isEqualTo(of);
      }
      assertThat(new HashSet<>(block)).as("pair %d reliability relabelings distinct", p).hasSize(2 * Q);
    }
    // The reliability graph is a coin flip per pair, as in BREC's script.
    assertThat(reliabilityOfH).isBetween(100, 300);
  }

  @Test
  void npyIsFixedWidthByteStringsAndRoundTrips() throws Exception {
    byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(npy), 128);
    String header = new String(head, java.nio.charset.StandardCharsets.ISO_8859_1);
    int width = entries.stream().mapToInt(String::length).max().orElseThrow();
    assertThat(header).contains("{'descr': '|S" + width + "', 'fortran_order': False, 'shape': (51200,), }");
    assertThat(Files.size(npy)).isEqualTo(128 + 51200L * width);

    Path g6 = dir.resolve("brec_v3.g6");
    assertThat(run("suite", "build-brec", "--raw", RAW.toString(), "--out", g6.toString(), "--seed", "7").code()).isZero();
    assertThat(Files.readAllLines(g6)).isEqualTo(entries);
    assertThat(SuiteSpecs.load("brec:" + g6).pairs().toList())
        .isEqualTo(SuiteSpecs.load("brec:" + npy).pairs().toList());
  }

  /**
   * CI installs python3-numpy; a missing one fails with the install line rather than skipping. The
   * python3 on PATH when it has NumPy, else Debian's (a pyenv first on PATH may lack it).
   */
  @Test
  void numpyLoadsTheFile() throws Exception {
    Path python = ExternalTools.python3("numpy", "python3-numpy");
    ExternalTools.Run r = ExternalTools.run(List.of(python.toString(), "-c",
        "import io, sys, numpy; a = numpy.load(sys.argv[1]); b = io.BytesIO(); numpy.save(b, [bytes(x) for x in a]);"
            + " print(a.shape, a.dtype, a[0].decode(), a[-1].decode(), b.getvalue() == open(sys.argv[1], 'rb').read())",
        npy.toString()), null, 120);
    int width = entries.stream().mapToInt(String::length).max().orElseThrow();
    assertThat(r.exitCode()).as(r.output()).isZero();
    // The last word: np.save of the same list of bytes writes this file byte for byte.
    assertThat(r.output().strip())
        .isEqualTo("(51200,) |S" + width + " " + entries.get(0) + " " + entries.get(51199) + " True");
  }

  /** BREC paper Table 2: 3-WL distinguishes 60 / 50 / 100 / 60 and no 4-vertex or distance-regular pair. */
  @Test
  void threeWlOnTheBuiltFileGivesThePublishedCounts() throws Exception {
    Result r = run("baseline", "--method", "3-wl", "--suite", "brec:" + npy, "--json");
    assertThat(r.code()).as(r.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(r.out());
    Map<String, Integer> distinguished = new LinkedHashMap<>();
    Map<String, Integer> pairs = new LinkedHashMap<>();
    for (JsonNode c : json.get("categories")) {
      distinguished.put(c.get("name").asText(), c.get("distinguished").asInt());
      pairs.put(c.get("name").asText(), c.get("pairs").asInt());
    }
    assertThat(pairs).isEqualTo(OFFICIAL);
    assertThat(distinguished).isEqualTo(ordered(
        "Basic", 60, "Regular", 50, "Extension", 100, "CFI", 60, "4-Vertex Condition", 0, "Distance Regular", 0));
    assertThat(json.get("total").get("distinguished").asInt()).isEqualTo(270);
  }

  @Test
  void variantsKeepBrecsPairsAndRanges() {
    Path threeWl = dir.resolve("brec_v3_3wl.g6");
    Result r = run("suite", "build-brec", "--raw", RAW.toString(), "--out", threeWl.toString(), "--variant", "3wl");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("BREC variant 3wl (brec_v3_3wl.npy), 270 pairs (Basic 60, Regular 50, Extension 100, CFI 60)");
    // 270 pairs name the variant: no option needed.
    Suite s = SuiteSpecs.load("brec:" + threeWl);
    assertThat(counts(s)).isEqualTo(ordered("Basic", 60, "Regular", 50, "Extension", 100, "CFI", 60));
    assertThat(s.pairs().filter(p -> p.index() == 110).map(GraphPair::category)).containsExactly("Extension");
    assertThat(s.pairs().filter(p -> p.index() == 210).map(GraphPair::category)).containsExactly("CFI");
    // The 3-WL file holds exactly what 3-WL tells apart.
    Result wl = run("baseline", "--method", "3-wl", "--suite", "brec:" + threeWl);
    assertThat(wl.out()).containsPattern("total\\s+270\\s+270\\s+100\\.0%");

    Suite no4v = SuiteSpecs.load("brec-raw:" + RAW + "#variant=no4v-60cfi");
    assertThat(counts(no4v)).isEqualTo(ordered(
        "Basic", 60, "Regular", 100, "Extension", 100, "CFI", 60, "Distance Regular", 20));
    assertThat(no4v.pairs().filter(p -> p.index() == 320).map(GraphPair::category)).containsExactly("Distance Regular");
    // A pair keeps its relabelings across variants: the seed is per raw pair.
    GraphPair cfiInFull = SuiteSpecs.load("brec:" + npy).pairs().filter(p -> p.index() == 260).findFirst().orElseThrow();
    Suite no4vSeven = SuiteSpecs.load("brec-raw:" + RAW + "#variant=no4v_60cfi,seed=7");
    assertThat(no4vSeven.pairs().filter(p -> p.index() == 260).findFirst().orElseThrow().relabelings())
        .isEqualTo(cfiInFull.relabelings());
  }

  @Test
  void brecRawGivesTheSameSuiteAsBuildThenBrec() {
    Suite fromFile = SuiteSpecs.load("brec:" + npy);
    Suite fromRaw = SuiteSpecs.load("brec-raw:" + RAW + "#seed=7");
    assertThat(fromRaw.categories()).extracting(Category::name).isEqualTo(List.copyOf(OFFICIAL.keySet()));
    assertThat(fromRaw.pairs().toList()).isEqualTo(fromFile.pairs().toList());
    Suite otherSeed = SuiteSpecs.load("brec-raw:" + RAW + "#seed=8,variant=3wl");
    GraphPair a = fromFile.pairs().toList().get(0);
    GraphPair b = otherSeed.pairs().toList().get(0);
    assertThat(b.first()).isEqualTo(a.first());
    assertThat(b.relabelings().first().get(1)).isNotEqualTo(a.relabelings().first().get(1));
  }

  @Test
  void smallerQIsWrittenAndReadWithTheQOption() {
    Path small = dir.resolve("q4.g6");
    Result r = run("suite", "build-brec", "--raw", RAW.toString(), "--out", small.toString(), "--q", "4");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("read it with --suite 'brec:" + small + "#q=4'");
    Suite s = SuiteSpecs.load("brec:" + small + "#q=4");
    assertThat(counts(s)).isEqualTo(OFFICIAL);
    assertThat(s.pairs().toList().get(0).relabelings().q()).isEqualTo(4);
    assertThat(s.pairs().toList()).isEqualTo(SuiteSpecs.load("brec-raw:" + RAW + "#q=4").pairs().toList());
  }

  @Test
  void aBadRawDirectoryNamesTheFile(@TempDir Path bad) throws Exception {
    Path out = bad.resolve("out.npy");
    Result missingDir = run("suite", "build-brec", "--raw", bad.resolve("nope").toString(), "--out", out.toString());
    assertThat(missingDir.code()).isEqualTo(1);
    assertThat(missingDir.err()).startsWith("expresso: error: " + bad.resolve("nope") + ": no such directory").doesNotContain("\n");

    Path raw = bad.resolve("raw");
    Files.createDirectory(raw);
    for (String f : List.of("basic.npy", "regular.npy", "str.npy", "extension.npy", "4vtx.npy", "dr.npy")) {
      Files.copy(RAW.resolve(f), raw.resolve(f));
    }
    Result missing = run("suite", "build-brec", "--raw", raw.toString(), "--out", out.toString());
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.err()).isEqualTo("expresso: error: " + raw.resolve("cfi.npy")
        + ": BREC raw category file not found (a raw directory holds basic.npy, regular.npy, str.npy,"
        + " extension.npy, cfi.npy, 4vtx.npy, dr.npy)");
    assertThat(out).doesNotExist();
    // The 3-WL variant reads no 4vtx.npy, dr.npy or str.npy, but it does read cfi.npy.
    assertThat(run("suite", "build-brec", "--raw", raw.toString(), "--out", out.toString(), "--variant", "3wl").code())
        .isEqualTo(1);

    // A (50, 3) array instead of (100, 2) rows.
    writeNpy(raw.resolve("cfi.npy"), "{'descr': '|S2', 'fortran_order': False, 'shape': (50, 3), }", 150);
    Result shape = run("suite", "build-brec", "--raw", raw.toString(), "--out", out.toString());
    assertThat(shape.code()).isEqualTo(1);
    assertThat(shape.err()).isEqualTo("expresso: error: cfi.npy: NPY array has shape (50, 3), 2 dimensions;"
        + " expected a 1-D list of graph6 strings or a (k, 2) array of pairs");

    // Right layout, too few pairs.
    writeNpy(raw.resolve("cfi.npy"), "{'descr': '|S2', 'fortran_order': False, 'shape': (99, 2), }", 198);
    Result count = run("suite", "build-brec", "--raw", raw.toString(), "--out", out.toString());
    assertThat(count.err()).isEqualTo("expresso: error: cfi.npy: 99 pairs; BREC's raw file holds 100 (is this BREC's cfi.npy?)");

    // Odd 1-D file.
    writeNpy(raw.resolve("cfi.npy"), "{'descr': '|S2', 'fortran_order': False, 'shape': (201,), }", 201);
    assertThat(run("suite", "build-brec", "--raw", raw.toString(), "--out", out.toString()).err())
        .isEqualTo("expresso: error: cfi.npy: 201 entries, an odd number; consecutive entries must form pairs");
    assertThat(out).doesNotExist();

    // The same errors through the brec-raw: spec.
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SuiteSpecs.load("brec-raw:" + raw))
        .hasMessage("cfi.npy: 201 entries, an odd number; consecutive entries must form pairs");
  }

  @Test
  void badOptionsAreUsageErrors() {
    Path out = dir.resolve("x.npy");
    Result variant = run("suite", "build-brec", "--raw", RAW.toString(), "--out", out.toString(), "--variant", "2wl");
    assertThat(variant.code()).isEqualTo(2);
    assertThat(variant.err()).contains("unknown BREC variant '2wl'; valid: full, 3wl, no4v-60cfi");
    Result ext = run("suite", "build-brec", "--raw", RAW.toString(), "--out", dir.resolve("x.txt").toString());
    assertThat(ext.code()).isEqualTo(2);
    assertThat(ext.err()).contains("the name must end in .npy or .g6");
    assertThat(run("suite", "build-brec", "--raw", RAW.toString(), "--out", out.toString(), "--q", "0").code()).isEqualTo(2);
    assertThat(run("suite").code()).isEqualTo(2);
  }

  /** A |S2 NPY file of {@code items} copies of the graph6 string "A_" (one edge). */
  private static void writeNpy(Path file, String dict, int items) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
    byte[] h = (dict + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    out.write(h.length & 0xff);
    out.write(h.length >> 8);
    out.write(h);
    for (int i = 0; i < items; i++) {
      out.write(new byte[] {'A', '_'});
    }
    Files.write(file, out.toByteArray());
  }

  /** The 800 raw graph6 strings, G and H of each pair, in official pair order. */
  private static List<String> rawStrings() throws Exception {
    List<String> out = new java.util.ArrayList<>();
    for (String f : List.of("basic.npy", "regular.npy", "str.npy", "extension.npy", "cfi.npy", "4vtx.npy", "dr.npy")) {
      out.addAll(NpyStringArray.readPairs(RAW.resolve(f)));
    }
    assertThat(out).hasSize(2 * PAIRS);
    return out;
  }

  private static Map<String, Integer> counts(Suite s) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Category c : s.categories()) {
      out.put(c.name(), c.pairs().size());
    }
    return out;
  }

  private static Map<String, Integer> ordered(Object... nameCount) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (int i = 0; i < nameCount.length; i += 2) {
      out.put((String) nameCount[i], (Integer) nameCount[i + 1]);
    }
    return out;
  }
}
