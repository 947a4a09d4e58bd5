package io.expresso.suite;

import io.expresso.graph.Graph;
import io.expresso.graph.GraphFormatException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * BREC's file layout (Wang & Zhang): with P pairs and q relabelings per graph (32 in the official
 * files), entries {@code [p·2q, (p+1)·2q)} are pair p's major block (even offsets relabel G, odd
 * offsets relabel H) and entries {@code [(P+p)·2q, (P+p+1)·2q)} its reliability block (2q
 * relabelings of one graph, compared as even versus odd offsets). Pairs fall into the categories of
 * their {@link BrecVariant} by index.
 */
public final class BrecLayout {

  /** Relabelings per graph in the official files. */
  public static final int Q = 32;

  /** Entries per pair in the official files: a major block and a reliability block of 2q entries each. */
  public static final int ENTRIES_PER_PAIR = 4 * Q;

  private BrecLayout() {}

  /** The suite held by {@code entries}: the full variant's categories, q = 32. */
  public static Suite suite(String id, String file, List<Graph> entries, int[] indices) {
    return suite(id, file, entries, indices, BrecVariant.FULL, Q);
  }

  /**
   * The suite held by {@code entries} in BREC layout.
   *
   * @param id the suite's spec
   * @param file the file name, for error messages
   * @param entries every graph of the file, in file order
   * @param indices the index of each pair in file order within {@code variant}, or {@code null}
   *     for 0..P-1
   * @param variant the BREC file the indices and categories refer to
   * @param q relabelings per graph
   * @throws GraphFormatException if the entry count is not a multiple of 4q, the indices do not
   *     fit, or a block mixes graphs of different sizes (a sign of a wrong layout)
   */
  public static Suite suite(String id, String file, List<Graph> entries, int[] indices, BrecVariant variant, int q) {
    if (q < 1) {
      throw new IllegalArgumentException("q must be at least 1, got " + q);
    }
    int perPair = 4 * q;
    if (entries.isEmpty() || entries.size() % perPair != 0) {
      throw new GraphFormatException(file + ": " + entries.size() + " entries is not a positive multiple of "
          + perPair + " (each pair has a major and a reliability block of 2q = " + (2 * q) + " graphs)");
    }
    int pairs = entries.size() / perPair;
    int[] official = indices == null ? defaultIndices(pairs) : indices;
    checkIndices(file, official, pairs, variant);

    Map<String, List<GraphPair>> byCategory = new LinkedHashMap<>();
    for (BrecVariant.Range r : variant.ranges()) {
      byCategory.putIfAbsent(r.name(), new ArrayList<>());
    }
    for (int p = 0; p < pairs; p++) {
      int major = p * 2 * q;
      int reliability = (pairs + p) * 2 * q;
      List<Graph> g = every2(entries, major, 0, q);
      List<Graph> h = every2(entries, major, 1, q);
      List<Graph> r1 = every2(entries, reliability, 0, q);
      List<Graph> r2 = every2(entries, reliability, 1, q);
      checkSameShape(file, g, major, "G of pair " + official[p]);
      checkSameShape(file, h, major + 1, "H of pair " + official[p]);
      List<Graph> reliabilityAll = new ArrayList<>(r1);
      reliabilityAll.addAll(r2);
      checkSameShape(file, reliabilityAll, reliability, "the reliability block of pair " + official[p]);
      Relabelings relabelings = new Relabelings(g, h, r1, r2);
      String category = variant.categoryOf(official[p]);
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

  private static void checkIndices(String file, int[] indices, int pairs, BrecVariant variant) {
    if (indices.length != pairs) {
      throw new GraphFormatException(file + ": " + indices.length + " pair indices given for " + pairs
          + " pairs in the file");
    }
    int total = variant.pairs();
    boolean[] seen = new boolean[total];
    for (int i : indices) {
      if (i < 0 || i >= total) {
        throw new GraphFormatException(file + ": pair index " + i + " is outside the "
            + (variant == BrecVariant.FULL ? "official BREC range 0.." : "range 0..") + (total - 1)
            + (variant == BrecVariant.FULL ? "" : " of BREC variant " + variant.name())
            + (pairs > total ? " (the file has " + pairs + " pairs)" : ""));
      }
      if (seen[i]) {
        throw new GraphFormatException(file + ": pair index " + i + " given twice");
      }
      seen[i] = true;
    }
  }

  /** Entries {@code start+parity, start+parity+2, ...} of one block of 2q. */
  private static List<Graph> every2(List<Graph> entries, int start, int parity, int q) {
    List<Graph> out = new ArrayList<>(q);
    for (int k = parity; k < 2 * q; k += 2) {
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
