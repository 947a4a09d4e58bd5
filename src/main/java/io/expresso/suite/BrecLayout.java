package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphFormatException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BREC's file layout (Wang & Zhang): with P pairs and q = 32, entries {@code [p·2q, (p+1)·2q)}
 * are pair p's major block (even offsets relabel G, odd offsets relabel H) and entries
 * {@code [(P+p)·2q, (P+p+1)·2q)} its reliability block (2q relabelings of one graph, compared as
 * even versus odd offsets). Pairs fall into the official categories by their official index.
 */
public final class BrecLayout {

  /** Relabelings per graph in the official files. */
  public static final int Q = 32;

  /** Entries per pair: a major block and a reliability block of 2q entries each. */
  public static final int ENTRIES_PER_PAIR = 4 * Q;

  /** The official category names and index ranges [from, to), in suite order. */
  public static final List<Range> CATEGORIES = List.of(
      new Range("Basic", 0, 60),
      new Range("Regular", 60, 160),
      new Range("Extension", 160, 260),
      new Range("CFI", 260, 360),
      new Range("4-Vertex Condition", 360, 380),
      new Range("Distance Regular", 380, 400));

  /** The number of pairs in the official dataset. */
  public static final int OFFICIAL_PAIRS = 400;

  /** One official category: pair indices {@code [from, to)}. */
  public record Range(String name, int from, int to) {}

  private BrecLayout() {}

  /** The official category of pair {@code index}. */
  public static String categoryOf(int index) {
    for (Range r : CATEGORIES) {
      if (index >= r.from() && index < r.to()) {
        return r.name();
      }
    }
    throw new IllegalArgumentException("pair index " + index + " is outside the official BREC range 0.."
        + (OFFICIAL_PAIRS - 1));
  }

  /**
   * The suite held by {@code entries} in BREC layout.
   *
   * @param id the suite's spec
   * @param file the file name, for error messages
   * @param entries every graph of the file, in file order
   * @param indices the official index of each pair in file order, or {@code null} for 0..P-1
   * @throws GraphFormatException if the entry count is not a multiple of 128, the indices do not
   *     fit, or a block mixes graphs of different sizes (a sign of a wrong layout)
   */
  public static Suite suite(String id, String file, List<Graph> entries, int[] indices) {
    if (entries.isEmpty() || entries.size() % ENTRIES_PER_PAIR != 0) {
      throw new GraphFormatException(file + ": " + entries.size() + " entries is not a positive multiple of "
          + ENTRIES_PER_PAIR + " (each pair has a major and a reliability block of 2q = " + (2 * Q) + " graphs)");
    }
    int pairs = entries.size() / ENTRIES_PER_PAIR;
    int[] official = indices == null ? defaultIndices(pairs) : indices;
    checkIndices(file, official, pairs);

    Map<String, List<GraphPair>> byCategory = new LinkedHashMap<>();
    for (Range r : CATEGORIES) {
      byCategory.put(r.name(), new ArrayList<>());
    }
    for (int p = 0; p < pairs; p++) {
      int major = p * 2 * Q;
      int reliability = (pairs + p) * 2 * Q;
      List<Graph> g = every2(entries, major, 0);
      List<Graph> h = every2(entries, major, 1);
      List<Graph> r1 = every2(entries, reliability, 0);
      List<Graph> r2 = every2(entries, reliability, 1);
      checkSameShape(file, g, major, "G of pair " + official[p]);
      checkSameShape(file, h, major + 1, "H of pair " + official[p]);
      List<Graph> reliabilityAll = new ArrayList<>(r1);
      reliabilityAll.addAll(r2);
      checkSameShape(file, reliabilityAll, reliability, "the reliability block of pair " + official[p]);
      Relabelings relabelings = new Relabelings(g, h, r1, r2);
      String category = categoryOf(official[p]);
      byCategory.get(category).add(new GraphPair(official[p], category, g.get(0), h.get(0), relabelings));
    }
    List<Category> categories = new ArrayList<>();
    byCategory.forEach((name, ps) -> {
      if (!ps.isEmpty()) {
        categories.add(new Category(name, ps));
      }
    });
    return new Suite(id, categories);
  }

  private static int[] defaultIndices(int pairs) {
    int[] out = new int[pairs];
    Arrays.setAll(out, i -> i);
    return out;
  }

  private static void checkIndices(String file, int[] indices, int pairs) {
    if (indices.length != pairs) {
      throw new GraphFormatException(file + ": " + indices.length + " pair indices given for " + pairs
          + " pairs in the file");
    }
    boolean[] seen = new boolean[OFFICIAL_PAIRS];
    for (int i : indices) {
      if (i < 0 || i >= OFFICIAL_PAIRS) {
        throw new GraphFormatException(file + ": pair index " + i + " is outside the official BREC range 0.."
            + (OFFICIAL_PAIRS - 1) + (pairs > OFFICIAL_PAIRS ? " (the file has " + pairs + " pairs)" : ""));
      }
      if (seen[i]) {
        throw new GraphFormatException(file + ": pair index " + i + " given twice");
      }
      seen[i] = true;
    }
  }

  /** Entries {@code start+parity, start+parity+2, ...} of one block of 2q. */
  private static List<Graph> every2(List<Graph> entries, int start, int parity) {
    List<Graph> out = new ArrayList<>(Q);
    for (int k = parity; k < 2 * Q; k += 2) {
      out.add(entries.get(start + k));
    }
    return out;
  }

  /** Relabelings of one graph share n and m; a mismatch means the file is not in BREC layout. */
  private static void checkSameShape(String file, List<Graph> graphs, int firstEntry, String what) {
    Graph g0 = graphs.get(0);
    for (Graph g : graphs) {
      if (g.n() != g0.n() || g.m() != g0.m()) {
        throw new GraphFormatException(file + ": relabelings of " + what + " (from entry " + firstEntry
            + ") differ in size: n=" + g0.n() + ", m=" + g0.m() + " versus n=" + g.n() + ", m=" + g.m()
            + "; is the file in BREC layout?");
      }
    }
  }
}
