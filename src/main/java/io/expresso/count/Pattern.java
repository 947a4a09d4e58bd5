package io.expresso.count;

import io.expresso.graph.Graph;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The connected patterns on 3 and 4 vertices whose induced copies are counted. Each knows its
 * command-line name, vertex count, edge count, diameter (the radius of the ego-net that holds every
 * copy through a flipped edge, Campi et al. Prop. 5.1) and its own graph.
 *
 * <p>Every pattern here is identified among all graphs on its vertex count by its sorted degree
 * sequence, which is how {@link #classify} works; tests check that against brute-force isomorphism.
 */
public enum Pattern {
  TRIANGLE("triangle", 3, 1, 0, 1, 1, 2, 0, 2),
  TWO_PATH("2-path", 3, 2, 0, 1, 1, 2),
  FOUR_CLIQUE("4-clique", 4, 1, 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3),
  CHORDAL_CYCLE("chordal-cycle", 4, 2, 0, 1, 1, 2, 2, 3, 3, 0, 0, 2),
  TAILED_TRIANGLE("tailed-triangle", 4, 2, 0, 1, 1, 2, 2, 0, 2, 3),
  THREE_STAR("3-star", 4, 2, 0, 1, 0, 2, 0, 3),
  FOUR_CYCLE("4-cycle", 4, 2, 0, 1, 1, 2, 2, 3, 3, 0),
  THREE_PATH("3-path", 4, 3, 0, 1, 1, 2, 2, 3);

  private static final Pattern[] VALUES = values();

  /**
   * Pattern of each adjacency mask on k vertices, or null. Bit {@link #pairBit(int, int)} of the
   * mask says whether local vertices a &lt; b are adjacent. Index [k][mask].
   */
  private static final Pattern[][] BY_MASK = new Pattern[5][];

  static {
    for (int k = 3; k <= 4; k++) {
      int pairs = k * (k - 1) / 2;
      BY_MASK[k] = new Pattern[1 << pairs];
      for (int mask = 0; mask < (1 << pairs); mask++) {
        int[] deg = degrees(k, mask);
        Arrays.sort(deg);
        for (Pattern p : VALUES) {
          if (p.k == k && Arrays.equals(p.sortedDegrees, deg)) {
            BY_MASK[k][mask] = p;
          }
        }
      }
    }
  }

  private final String cliName;
  private final int k;
  private final int diameter;
  private final int[] edgeList;
  private final int[] sortedDegrees;

  Pattern(String cliName, int k, int diameter, int... edgeList) {
    this.cliName = cliName;
    this.k = k;
    this.diameter = diameter;
    this.edgeList = edgeList;
    int[] deg = new int[k];
    for (int e : edgeList) {
      deg[e]++;
    }
    Arrays.sort(deg);
    this.sortedDegrees = deg;
  }

  /** The name used on the command line and in files, e.g. {@code "4-cycle"}. */
  public String cliName() {
    return cliName;
  }

  /** Number of vertices. */
  public int k() {
    return k;
  }

  /** Number of edges. */
  public int edges() {
    return edgeList.length / 2;
  }

  /** Diameter of the pattern graph. */
  public int diameter() {
    return diameter;
  }

  /** The pattern as a graph on vertices {@code 0..k-1}. */
  public Graph graph() {
    return Graph.fromEdges(k, edgeList);
  }

  @Override
  public String toString() {
    return cliName;
  }

  /** All command-line names, comma-separated, in declaration order. */
  public static String validNames() {
    return Arrays.stream(VALUES).map(Pattern::cliName).collect(Collectors.joining(", "));
  }

  /**
   * The pattern with this command-line name (case-insensitive).
   *
   * @throws IllegalArgumentException naming the unknown value and listing the valid names
   */
  public static Pattern fromName(String name) {
    String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    for (Pattern p : VALUES) {
      if (p.cliName.equals(wanted)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown pattern '" + name + "'; valid patterns: " + validNames());
  }

  /** Bit index of the vertex pair {a, b} (a != b, both below k) in an adjacency mask on k vertices. */
  static int pairBit(int k, int a, int b) {
    int lo = Math.min(a, b);
    int hi = Math.max(a, b);
    // Pairs ordered (0,1),(0,2),..,(0,k-1),(1,2),...: lo rows before, then offset within row.
    return lo * k - lo * (lo + 1) / 2 + (hi - lo - 1);
  }

  /** The pattern induced by adjacency mask {@code mask} on k (3 or 4) vertices, or null. */
  static Pattern classify(int k, int mask) {
    return BY_MASK[k][mask];
  }

  /** Degree of each local vertex in the graph with adjacency mask {@code mask} on k vertices. */
  static int[] degrees(int k, int mask) {
    int[] deg = new int[k];
    for (int a = 0; a < k; a++) {
      for (int b = a + 1; b < k; b++) {
        if ((mask >>> pairBit(k, a, b) & 1) != 0) {
          deg[a]++;
          deg[b]++;
        }
      }
    }
    return deg;
  }
}
