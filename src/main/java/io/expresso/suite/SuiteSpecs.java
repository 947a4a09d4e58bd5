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
 *   <li>{@code brec:<path>[#indices=<list>]} — a file in BREC layout ({@link BrecLayout}), either a
 *       {@code .npy} NumPy array of graph6 strings in any encoding {@link NpyStringArray} reads
 *       (recognised by its magic bytes) or graph6 text, one graph per line, in the same order.
 *       Pairs get official indices 0..P-1 and the official categories those indices fall in;
 *       {@code #indices=} gives the official index of each pair instead, for excerpts of the
 *       official file: a comma-separated list of indices and ranges {@code a-b} (inclusive), e.g.
 *       {@code #indices=0,60,110,160}.
 *   <li>{@code pairs:<path>} — graph6/sparse6 text where consecutive lines form pairs, or a 1-D
 *       {@code .npy} array of graph6 strings where consecutive entries do (BREC's raw category
 *       files); one category named after the file.
 *   <li>{@code builtin} — the suite the project generates ({@link BuiltinSuite}).
 * </ul>
 *
 * <p>Errors: an unknown form or a malformed {@code #indices} is an {@link IllegalArgumentException}
 * listing the valid forms; a missing, unreadable or malformed file is a {@link
 * GraphFormatException} naming the file (and the line or entry); so is an empty file, and a pairs
 * file with fewer than two graphs.
 */
public final class SuiteSpecs {

  /** The spec forms, for help texts and error messages. */
  public static final String FORMS = "brec:<path.npy|path.g6>[#indices=0,60,110-112], pairs:<path.g6|path.npy>, builtin";

  private static final String INDICES = "#indices=";

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
    if (spec.startsWith("pairs:")) {
      return loadPairs(spec, spec.substring("pairs:".length()));
    }
    throw new IllegalArgumentException("unknown suite spec '" + spec + "'; valid forms: " + FORMS);
  }

  /**
   * A short name for a suite spec, for metric labels: the file name without directories, extension
   * or {@code #indices} ({@code brec:/data/x/brec_v3.npy#indices=0-9} → {@code brec_v3}),
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
    int[] indices = null;
    int hash = rest.lastIndexOf(INDICES);
    if (hash >= 0) {
      indices = parseIndices(rest.substring(hash + INDICES.length()), spec);
      rest = rest.substring(0, hash);
    }
    Path file = existingFile(rest, spec);
    String name = file.getFileName().toString();
    return BrecLayout.suite(spec, name, readGraphs(file), indices);
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
    List<Integer> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String p = part.strip();
      try {
        int dash = p.indexOf('-', 1);
        if (dash > 0) {
          int from = Integer.parseInt(p.substring(0, dash).strip());
          int to = Integer.parseInt(p.substring(dash + 1).strip());
          if (from > to) {
            throw new IllegalArgumentException("range " + p + " runs backwards");
          }
          for (int i = from; i <= to; i++) {
            out.add(i);
          }
        } else {
          out.add(Integer.parseInt(p));
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("suite spec '" + spec + "': '" + p
            + "' is not a pair index or range a-b; valid forms: " + FORMS);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("suite spec '" + spec + "': " + e.getMessage() + "; valid forms: " + FORMS);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
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
