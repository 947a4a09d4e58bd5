package io.expresso.suite;

import io.expresso.graph.Components;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphProperties;
import io.expresso.iso.Canonizer;
import io.expresso.iso.Certificate;
import io.expresso.iso.Isomorphism;
import io.expresso.wl.PairDistinguisher;
import io.expresso.wl.WlMethods;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The suite Expresso generates itself (spec {@code builtin}): one category per construction, in
 * this order, pairs numbered 0.. across the suite.
 *
 * <ol>
 *   <li>{@value #NON_REGULAR}: every class of connected, non-regular graphs on 6 and 7 vertices
 *       that 1-WL cannot split, found by exhaustive enumeration ({@link SmallGraphs}); each class
 *       of k graphs gives k − 1 pairs (its first graph with each other one).
 *   <li>{@value #SIMPLE_REGULAR}: graphs with the same n and degree: all regular graphs on 6 and
 *       7 vertices, and the circulants on 8 to 10 vertices, grouped by (n, degree), consecutive
 *       members of each group paired.
 *   <li>{@value #STRONGLY_REGULAR}: Shrikhande vs the 4×4 rook's graph (srg(16,6,2,2)) and their
 *       complements (srg(16,9,4,6)); T(8) and the three Chang graphs, all six pairs
 *       (srg(28,12,6,4)); Latin square graphs of Z_5 and of a non-group square (srg(25,12,5,6)),
 *       and of Z_6 and S_3 (srg(36,15,6,6)).
 *   <li>{@value #CSL}: CSL(41, r) for Murphy et al.'s ten skip lengths, all 45 pairs.
 *   <li>{@value #CFI}: Cai–Fürer–Immerman pairs over C_5 and the diamond K_4 − e (treewidth 2:
 *       3-WL distinguishes them) and over K_4, the prism and K_{3,3} (treewidth 3: they defeat
 *       3-WL, i.e. 2-FWL).
 * </ol>
 *
 * <p>Every pair is checked at generation: non-isomorphic ({@link Isomorphism}), and indeed
 * equivalent under the weakest relevant test (1-WL for the first category; equal n and degree,
 * or equal srg parameters, elsewhere). A failed check is a bug and throws {@link
 * IllegalStateException}. The suite is built once and cached; it is deterministic.
 */
public final class BuiltinSuite {

  public static final String NON_REGULAR = "1-WL-equivalent non-regular";
  public static final String SIMPLE_REGULAR = "Simple regular";
  public static final String STRONGLY_REGULAR = "Strongly regular";
  public static final String CSL = "CSL";
  public static final String CFI = "CFI";

  private static volatile Suite cached;

  private BuiltinSuite() {}

  /** The builtin suite (generated on first use, about a second, then cached). */
  public static Suite generate() {
    Suite s = cached;
    if (s == null) {
      synchronized (BuiltinSuite.class) {
        s = cached;
        if (s == null) {
          s = build();
          cached = s;
        }
      }
    }
    return s;
  }

  static Suite build() {
    Map<String, List<Graph[]>> raw = new LinkedHashMap<>();
    List<Graph> small = new ArrayList<>(SmallGraphs.all(6));
    small.addAll(SmallGraphs.all(7));
    raw.put(NON_REGULAR, oneWlEquivalentNonRegular(small));
    raw.put(SIMPLE_REGULAR, simpleRegular(small));
    raw.put(STRONGLY_REGULAR, stronglyRegular());
    raw.put(CSL, csl());
    raw.put(CFI, cfi());

    List<Category> categories = new ArrayList<>();
    int index = 0;
    for (Map.Entry<String, List<Graph[]>> e : raw.entrySet()) {
      List<GraphPair> pairs = new ArrayList<>();
      for (Graph[] p : e.getValue()) {
        if (Isomorphism.isomorphic(p[0], p[1])) {
          throw new IllegalStateException("builtin " + e.getKey() + " pair " + index + " is isomorphic: " + p[0] + " / " + p[1]);
        }
        pairs.add(new GraphPair(index++, e.getKey(), p[0], p[1], null));
      }
      categories.add(new Category(e.getKey(), pairs));
    }
    return new Suite("builtin", categories);
  }

  /** Classes of connected non-regular graphs that 1-WL cannot split; first graph with each other. */
  static List<Graph[]> oneWlEquivalentNonRegular(List<Graph> graphs) {
    PairDistinguisher oneWl = WlMethods.byName("1-wl");
    // Bucket by a 1-WL invariant: 1-WL-equivalent graphs always share a bucket; a hash collision
    // could merge classes, so pairs are confirmed with the exact 1-WL test below.
    Map<String, List<Graph>> buckets = new TreeMap<>();
    for (Graph g : graphs) {
      if (!g.isRegular() && Components.isConnected(g)) {
        buckets.computeIfAbsent(refinementKey(g), k -> new ArrayList<>()).add(g);
      }
    }
    List<Graph[]> pairs = new ArrayList<>();
    for (List<Graph> bucket : buckets.values()) {
      List<Graph> left = new ArrayList<>(bucket);
      while (left.size() > 1) {
        Graph first = left.remove(0);
        List<Graph> rest = new ArrayList<>();
        for (Graph g : left) {
          if (oneWl.distinguishes(first, g)) {
            rest.add(g); // a collision: g belongs to another 1-WL class
          } else {
            pairs.add(new Graph[] {first, g});
          }
        }
        left = rest;
      }
    }
    pairs.sort((a, b) -> compareGraphs(a[0], b[0]) != 0 ? compareGraphs(a[0], b[0]) : compareGraphs(a[1], b[1]));
    return pairs;
  }

  /**
   * A key shared by 1-WL-equivalent graphs of the same order: the sorted vertex hashes after 2n
   * rounds of hashed colour refinement (each hash is a function of the vertex's 1-WL colour).
   */
  static String refinementKey(Graph g) {
    int n = g.n();
    long[] h = new long[n];
    Arrays.fill(h, 1); // not 0: mix(0) = 0 would keep every hash at 0
    for (int round = 0; round < 2 * n; round++) {
      long[] next = new long[n];
      for (int v = 0; v < n; v++) {
        long sum = 0;
        for (int k = 0; k < g.degree(v); k++) {
          sum += mix(h[g.neighbor(v, k)] + 0x632BE59BD9B4E019L);
        }
        next[v] = mix(h[v] * 0x9E3779B97F4A7C15L + sum);
      }
      h = next;
    }
    Arrays.sort(h);
    return n + ":" + Arrays.toString(h);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** Regular graphs from the enumeration and circulants on 8..10 vertices, paired within (n, degree). */
  static List<Graph[]> simpleRegular(List<Graph> small) {
    List<Graph> candidates = new ArrayList<>();
    for (Graph g : small) {
      if (g.isRegular()) {
        candidates.add(g);
      }
    }
    for (int n = 8; n <= 10; n++) {
      candidates.addAll(circulants(n));
    }
    // Group by (n, degree) in order; drop the trivial degrees 0 and n-1.
    Map<Long, List<Graph>> groups = new TreeMap<>();
    for (Graph g : candidates) {
      int d = g.maxDegree();
      if (d > 0 && d < g.n() - 1) {
        groups.computeIfAbsent((long) g.n() << 32 | d, k -> new ArrayList<>()).add(g);
      }
    }
    List<Graph[]> pairs = new ArrayList<>();
    for (List<Graph> group : groups.values()) {
      group.sort(BuiltinSuite::compareGraphs);
      for (int i = 0; i + 1 < group.size(); i++) {
        pairs.add(new Graph[] {group.get(i), group.get(i + 1)});
      }
    }
    return pairs;
  }

  /** The circulants on n vertices up to isomorphism, as canonical forms. */
  static List<Graph> circulants(int n) {
    Set<Certificate> seen = new HashSet<>();
    List<Graph> out = new ArrayList<>();
    int half = n / 2;
    for (int mask = 1; mask < 1 << half; mask++) {
      int[] jumps = new int[Integer.bitCount(mask)];
      int k = 0;
      for (int j = 1; j <= half; j++) {
        if ((mask >> (j - 1) & 1) != 0) {
          jumps[k++] = j;
        }
      }
      Certificate c = Canonizer.certificate(Constructions.circulant(n, jumps));
      if (seen.add(c)) {
        out.add(c.canonicalGraph());
      }
    }
    return out;
  }

  static List<Graph[]> stronglyRegular() {
    List<Graph[]> pairs = new ArrayList<>();
    Graph shrikhande = Constructions.shrikhande();
    Graph rook = Constructions.rook(4);
    pairs.add(new Graph[] {shrikhande, rook});
    pairs.add(new Graph[] {shrikhande.complement(), rook.complement()});
    Graph[] t8AndChang = {
      Constructions.triangular(8), Constructions.chang(1), Constructions.chang(2), Constructions.chang(3)
    };
    for (int i = 0; i < t8AndChang.length; i++) {
      for (int j = i + 1; j < t8AndChang.length; j++) {
        pairs.add(new Graph[] {t8AndChang[i], t8AndChang[j]});
      }
    }
    pairs.add(new Graph[] {
      Constructions.latinSquareGraph(Constructions.cyclicSquare(5)),
      Constructions.latinSquareGraph(Constructions.nonGroupSquare5())
    });
    pairs.add(new Graph[] {
      Constructions.latinSquareGraph(Constructions.cyclicSquare(6)),
      Constructions.latinSquareGraph(Constructions.s3Square())
    });
    for (Graph[] p : pairs) {
      int[] a = GraphProperties.stronglyRegularParameters(p[0]);
      int[] b = GraphProperties.stronglyRegularParameters(p[1]);
      if (a == null || !Arrays.equals(a, b)) {
        throw new IllegalStateException("strongly regular pair with parameters " + Arrays.toString(a)
            + " and " + Arrays.toString(b));
      }
    }
    return pairs;
  }

  static List<Graph[]> csl() {
    int[] r = Constructions.CSL_SKIPS;
    List<Graph[]> pairs = new ArrayList<>();
    for (int i = 0; i < r.length; i++) {
      for (int j = i + 1; j < r.length; j++) {
        pairs.add(new Graph[] {Constructions.csl(41, r[i]), Constructions.csl(41, r[j])});
      }
    }
    return pairs;
  }

  /** Base graphs of the CFI pairs, treewidth 2 first, then treewidth 3. */
  public static List<Graph> cfiBases() {
    Graph diamond = Graph.fromEdges(4, 0, 1, 0, 2, 1, 2, 1, 3, 2, 3);
    return List.of(Constructions.cycle(5), diamond, Constructions.complete(4), Constructions.prism(),
        Constructions.completeBipartite(3, 3));
  }

  static List<Graph[]> cfi() {
    List<Graph[]> pairs = new ArrayList<>();
    for (Graph base : cfiBases()) {
      List<Graph> p = Constructions.cfiPair(base);
      pairs.add(new Graph[] {p.get(0), p.get(1)});
    }
    return pairs;
  }

  /** A deterministic order: by n, then m, then graph6 string. */
  private static int compareGraphs(Graph a, Graph b) {
    if (a.n() != b.n()) {
      return Integer.compare(a.n(), b.n());
    }
    if (a.m() != b.m()) {
      return Integer.compare(a.m(), b.m());
    }
    return io.expresso.graph.Graph6.encode(a).compareTo(io.expresso.graph.Graph6.encode(b));
  }
}
