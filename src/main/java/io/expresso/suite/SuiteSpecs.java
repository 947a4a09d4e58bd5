package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a suite spec into a {@link Suite}. The forms:
 *
 * <ul>
 *   <li>{@code brec:<path>[#variant=<name>,q=<q>,indices=<list>]} — a file in BREC layout ({@link
 *       BrecLayout}), either a {@code .npy} NumPy array of graph6 strings in any encoding {@link
 *       NpyStringArray} reads (recognised by its magic bytes) or graph6 text, one graph per line,
 *       in the same order. {@code variant=} names the BREC file it is ({@link BrecVariant}: {@code
 *       full}, {@code 3wl}, {@code no4v-60cfi}), which fixes the categories of its pair indices;
 *       without it and without {@code indices=}, a file with exactly the pair count of one variant
 *       (400, 270, 340) is read as that variant, any other as an excerpt of the full file. Pairs get
 *       indices 0..P-1 and the categories those indices fall in; {@code indices=} gives the index
 *       of each pair instead, for excerpts: a comma-separated list of indices and ranges {@code a-b}
 *       (inclusive), e.g. {@code #indices=0,60,110,160}. {@code q=} (default 32) is the number of
 *       relabelings per graph the file was built with.
 *   <li>{@code brec-raw:<dir>[#variant=<name>,q=<q>,seed=<s>]} — BREC's seven raw category files
 *       ({@link BrecRaw}) with relabelings drawn from the seed ({@link BrecBuilder}; default seed
 *       2022, q = 32, variant full): the same suite as {@code expresso suite build-brec} with those
 *       settings, then {@code brec:} on its output.
 *   <li>{@code pairs:<path>} — graph6/sparse6 text where consecutive lines form pairs, or a 1-D
 *       {@code .npy} array of graph6 strings where consecutive entries do (BREC's raw category
 *       files); one category named after the file.
 *   <li>{@code builtin} — the suite the project generates ({@link BuiltinSuite}).
 * </ul>
 *
 * <p>Errors: an unknown form or a malformed {@code #option} is an {@link IllegalArgumentException}
 * listing the valid forms; a missing, unreadable or malformed file is a {@link
 * GraphFormatException} naming the file (and the line or entry); so is an empty file, and a pairs
 * file with fewer than two graphs.
 */
public final class SuiteSpecs {

  /** The spec forms, for help texts and error messages. */
  public static final String FORMS = "brec:<path.npy|path.g6>[#variant=full|3wl|no4v-60cfi,q=32,indices=0,60,110-112],"
      + " brec-raw:<dir>[#variant=full,q=32,seed=2022], pairs:<path.g6|path.npy>, builtin";

  private static final List<String> BREC_OPTIONS = List.of("variant", "q", "indices");
  private static final List<String> RAW_OPTIONS = List.of("variant", "q", "seed");

  private SuiteSpecs() {}

  public static Suite load(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("empty suite spec; valid forms: " + FORMS);
    }
    if (spec.equals("builtin")) {
      return BuiltinSuite.generate();
    }
    if (spec.startsWith("brec:")) {
      return loadBrec(spec, spec.substring("brec:".length()));
    }
    if (spec.startsWith("brec-raw:")) {
      return loadBrecRaw(spec, spec.substring("brec-raw:".length()));
    }
    if (spec.startsWith("pairs:")) {
      return loadPairs(spec, spec.substring("pairs:".length()));
    }
    throw new IllegalArgumentException("unknown suite spec '" + spec + "'; valid forms: " + FORMS);
  }

  /**
   * A short name for a suite spec, for metric labels: the file name without directories, extension
   * or {@code #options} ({@code brec:/data/x/brec_v3.npy#indices=0-9} → {@code brec_v3}),
   * {@code builtin} for the built-in suite. Never a path, whatever the spec; the spec itself need
   * not be valid.
   */
  public static String shortName(String spec) {
    String s = spec.strip();
    if (s.equals("builtin")) {
      return s;
    }
    int colon = s.indexOf(':');
    String form = colon > 0 ? s.substring(0, colon) : "";
    String name = s.substring(Math.max(Math.max(s.lastIndexOf('/'), s.lastIndexOf('\\')), colon) + 1);
    int hash = name.indexOf('#');
    if (hash >= 0) {
      name = name.substring(0, hash);
    }
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      name = name.substring(0, dot);
    }
    return name.isBlank() ? (form.isEmpty() ? "unnamed" : form) : name;
  }

  private static Suite loadBrec(String spec, String rest) {
    SpecOptions options = SpecOptions.parse(spec, rest, BREC_OPTIONS, FORMS);
    int q = relabelings(options, spec);
    String indexList = options.get("indices", null);
    int[] indices = indexList == null ? null : parseIndices(indexList, spec);
    String variantName = options.get("variant", null);
    BrecVariant variant = variantName == null ? null : variant(variantName, spec);
    Path file = existingFile(options.path(), spec);
    String name = file.getFileName().toString();
    List<Graph> graphs = readGraphs(file);
    if (variant == null) {
      // Each variant's pair count is its own, so a whole variant file names itself; anything else
      // (an excerpt, numbered or not) is read against the full file's ranges, as before variants.
      boolean whole = indices == null && graphs.size() % (4 * q) == 0;
      variant = whole ? BrecVariant.byPairCount(graphs.size() / (4 * q)).orElse(BrecVariant.FULL) : BrecVariant.FULL;
    }
    return BrecLayout.suite(spec, name, graphs, indices, variant, q);
  }

  private static Suite loadBrecRaw(String spec, String rest) {
    SpecOptions options = SpecOptions.parse(spec, rest, RAW_OPTIONS, FORMS);
    int q = relabelings(options, spec);
    long seed = options.number("seed", BrecBuilder.DEFAULT_SEED, spec, FORMS);
    BrecVariant variant = variant(options.get("variant", BrecVariant.FULL.name()), spec);
    if (options.path().isEmpty()) {
      throw new IllegalArgumentException("suite spec '" + spec + "' names no directory; valid forms: " + FORMS);
    }
    Path dir = Path.of(options.path());
    List<Graph> entries = BrecBuilder.entries(BrecRaw.pairs(dir, variant), q, seed);
    String name = dir.getFileName() == null ? options.path() : dir.getFileName().toString();
    return BrecLayout.suite(spec, name, entries, null, variant, q);
  }

  private static int relabelings(SpecOptions options, String spec) {
    long q = options.number("q", BrecLayout.Q, spec, FORMS);
    if (q < 1 || q > 1 << 16) {
      throw new IllegalArgumentException("suite spec '" + spec + "': q=" + q + " is out of range (1..65536)");
    }
    return (int) q;
  }

  private static BrecVariant variant(String name, String spec) {
    try {
      return BrecVariant.byName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("suite spec '" + spec + "': " + e.getMessage());
    }
  }

  private static Suite loadPairs(String spec, String rest) {
    Path file = existingFile(rest, spec);
    String name = file.getFileName().toString();
    List<Graph> graphs = readGraphs(file);
    if (graphs.size() < 2) {
      throw new GraphFormatException(name + ": " + (graphs.isEmpty() ? "no graphs" : "1 graph")
          + "; a pairs file needs at least one pair (two consecutive graphs)");
    }
    if (graphs.size() % 2 != 0) {
      throw new GraphFormatException(name + ": " + graphs.size()
          + " graphs, an odd number; consecutive lines must form pairs");
    }
    String category = name.replaceFirst("\\.(g6|s6|npy)$", "");
    List<GraphPair> pairs = new ArrayList<>();
    for (int i = 0; i < graphs.size(); i += 2) {
      pairs.add(new GraphPair(i / 2, category, graphs.get(i), graphs.get(i + 1), null));
    }
    return new Suite(spec, List.of(new Category(category, pairs)));
  }

  private static Path existingFile(String path, String spec) {
    if (path.isEmpty()) {
      throw new IllegalArgumentException("suite spec '" + spec + "' names no file; valid forms: " + FORMS);
    }
    Path file = Path.of(path);
    if (!Files.exists(file)) {
      throw new GraphFormatException(path + ": suite file not found");
    }
    if (!Files.isRegularFile(file)) {
      throw new GraphFormatException(path + ": suite file is not a regular file");
    }
    return file;
  }

  /** A comma-separated list of indices and inclusive ranges a-b. */
  static int[] parseIndices(String text, String spec) {
    try {
      return IndexRanges.values("indices", text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("suite spec '" + spec + "': " + e.getMessage() + "; valid forms: " + FORMS);
    }
  }

  /** The graphs of a suite file: an NPY array (by its magic bytes) or graph6/sparse6 text. */
  private static List<Graph> readGraphs(Path file) {
    String name = file.getFileName().toString();
    try {
      if (Files.size(file) == 0) {
        throw new GraphFormatException(name + ": the file is empty");
      }
      if (!NpyStringArray.isNpy(file)) {
        List<Graph> graphs = Graph6.readFile(file);
        if (graphs.isEmpty()) {
          throw new GraphFormatException(name + ": the file holds no graphs, only blank lines");
        }
        return graphs;
      }
      List<String> strings = NpyStringArray.read(file);
      List<Graph> graphs = new ArrayList<>(strings.size());
      for (int i = 0; i < strings.size(); i++) {
        try {
          graphs.add(Graph6.decode(strings.get(i)));
        } catch (GraphFormatException e) {
          throw e.at(name + " entry " + i);
        }
      }
      return graphs;
    } catch (IOException e) {
      throw new GraphFormatException(file + ": cannot read: " + e.getMessage(), e);
    }
  }
}
