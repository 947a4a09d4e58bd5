package io.expresso.iso;

import io.expresso.graph.Graph;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Canonical labelling of vertex-coloured graphs by individualization–refinement (the scheme of
 * McKay's nauty and of bliss/Traces, simplified).
 *
 * <p>The search tree: the root is the coarsest equitable refinement of the colour partition (cells
 * ordered by colour value); a node's children individualize each vertex of its target cell (the
 * first largest non-singleton cell) and refine again; leaves are discrete partitions, i.e.
 * labellings. Each node carries an invariant (the hash of its refinement trace). The canonical
 * leaf is the maximum leaf under the order: invariant sequence along the path first (lexicographic),
 * then the relabelled adjacency matrix. Because invariants and the target-cell rule are
 * labelling-independent, isomorphic coloured graphs have canonical leaves with equal relabelled
 * graphs — the certificate.
 *
 * <p>Pruning, all sound for that order: (1) a node whose invariant sequence is below the best
 * leaf's is cut, unless it still matches the first leaf's path (where automorphisms are found);
 * (2) a leaf whose relabelled graph equals the first or best leaf's gives an automorphism; the
 * search jumps back to where the two paths diverge (the subtree is an image of one already
 * searched); (3) at every node, children in the same orbit as an explored child under the
 * automorphisms found so far that fix the node's individualized vertices are skipped.
 */
public final class Canonizer {

  private final Graph g;
  private final int n;
  private final int words;
  private final long[] sortedColours;
  private final Refiner refiner;
  private final Partition[] levels;
  private final long[] curInv;
  private final int[] path;
  private final long[] rows;

  private boolean haveFirst;
  private int firstDepth;
  private long[] firstInv;
  private int[] firstLab;
  private int[] firstPath;
  private long[] firstRows;

  private int bestDepth;
  private long[] bestInv;
  private int[] bestLab;
  private int[] bestPath;
  private long[] bestRows;

  private final List<int[]> generators = new ArrayList<>();
  /** The points each generator moves, for cheap stabilizer tests and orbit joins. */
  private final List<int[]> supports = new ArrayList<>();
  /** The level at which a vertex is individualized on the current path, or MAX_VALUE. */
  private final int[] pathLevel;
  private long leaves;

  private Canonizer(Graph g, long[] colours) {
    this.g = g;
    this.n = g.n();
    this.words = Math.max(1, (n + 63) >>> 6);
    this.sortedColours = colours.clone();
    Arrays.sort(sortedColours);
    this.refiner = new Refiner(g);
    this.levels = new Partition[n + 1];
    this.curInv = new long[n + 1];
    this.path = new int[n + 1];
    this.rows = new long[n * words];
    this.pathLevel = new int[n];
    Arrays.fill(pathLevel, Integer.MAX_VALUE);
  }

  /** The canonical labelling of an uncoloured graph. */
  public static CanonicalLabeling canonize(Graph g) {
    return canonize(g, new long[g.n()]);
  }

  /**
   * The canonical labelling of {@code g} with vertex colours {@code colours} (one value per
   * vertex; isomorphisms must map each vertex to one of the same colour value).
   */
  public static CanonicalLabeling canonize(Graph g, long[] colours) {
    if (colours.length != g.n()) {
      throw new IllegalArgumentException(colours.length + " colours for " + g.n() + " vertices");
    }
    return new Canonizer(g, colours).run(colours);
  }

  /** The certificate of an uncoloured graph. */
  public static Certificate certificate(Graph g) {
    return canonize(g).certificate();
  }

  /** The certificate of a vertex-coloured graph. */
  public static Certificate certificate(Graph g, long[] colours) {
    return canonize(g, colours).certificate();
  }

  private CanonicalLabeling run(long[] colours) {
    if (n == 0) {
      return new CanonicalLabeling(new int[0], new Certificate(0, new long[0], new long[0]), List.of(), 1);
    }
    Partition root = Partition.byColour(colours);
    levels[0] = root;
    curInv[0] = refiner.refineAll(root);
    search(0);
    int[] position = new int[n];
    for (int i = 0; i < n; i++) {
      position[bestLab[i]] = i;
    }
    return new CanonicalLabeling(position, new Certificate(n, sortedColours, bestRows.clone()),
        List.copyOf(generators), leaves);
  }

  /**
   * Explores the subtree of the node at {@code level} (whose partition and invariant are set).
   * Returns the level at which the search continues: {@code level} normally, lower after an
   * automorphism made the rest of the subtree redundant.
   */
  private int search(int level) {
    Partition p = levels[level];
    if (p.discrete()) {
      return leaf(level);
    }
    int target = targetCell(p);
    int len = p.cellLen[target];
    int[] children = Arrays.copyOfRange(p.lab, target, target + len);
    Arrays.sort(children);
    int[] explored = new int[len];
    int exploredCount = 0;
    int[] orbit = null;
    int orbitGens = 0;
    if (levels[level + 1] == null) {
      levels[level + 1] = new Partition(n);
    }
    Partition child = levels[level + 1];
    for (int v : children) {
      if (exploredCount > 0) {
        if (orbit == null) {
          orbit = new int[n];
          for (int u = 0; u < n; u++) {
            orbit[u] = u;
          }
          orbitGens = 0;
        }
        if (orbitGens != generators.size()) {
          // The prefix is fixed while this node's children are explored: add only the new generators.
          joinOrbits(orbit, level, orbitGens);
          orbitGens = generators.size();
        }
        if (sameOrbitAsAny(orbit, v, explored, exploredCount)) {
          continue;
        }
      }
      explored[exploredCount++] = v;
      child.copyFrom(p);
      int start = child.individualize(v);
      curInv[level + 1] = refiner.refineFrom(child, start);
      path[level] = v;
      if (haveFirst && comparePrefix(level + 1, bestInv, bestDepth) < 0
          && comparePrefix(level + 1, firstInv, firstDepth) != 0) {
        continue; // every leaf below is worse than the best and cannot match the first
      }
      pathLevel[v] = level;
      int back = search(level + 1);
      pathLevel[v] = Integer.MAX_VALUE;
      if (back < level) {
        return back;
      }
    }
    return level;
  }

  /** First non-singleton cell of maximum size. */
  private static int targetCell(Partition p) {
    int best = -1;
    int bestLen = 1;
    for (int s = 0; s < p.n; s += p.cellLen[s]) {
      if (p.cellLen[s] > bestLen) {
        bestLen = p.cellLen[s];
        best = s;
      }
    }
    return best;
  }

  private int leaf(int level) {
    leaves++;
    Partition p = levels[level];
    relabelledRows(p, rows);
    if (!haveFirst) {
      haveFirst = true;
      firstDepth = bestDepth = level;
      firstInv = Arrays.copyOf(curInv, level + 1);
      bestInv = firstInv.clone();
      firstLab = p.lab.clone();
      bestLab = firstLab.clone();
      firstPath = Arrays.copyOf(path, level);
      bestPath = firstPath.clone();
      firstRows = rows.clone();
      bestRows = firstRows.clone();
      return level;
    }
    if (level == firstDepth && comparePrefix(level, firstInv, firstDepth) == 0
        && Arrays.equals(rows, firstRows)) {
      return automorphism(firstLab, p.lab, firstPath, level);
    }
    int c = comparePrefix(level, bestInv, bestDepth);
    if (c == 0) {
      c = level == bestDepth ? Arrays.compare(rows, bestRows) : Integer.compare(level, bestDepth);
    }
    if (c == 0) {
      return automorphism(bestLab, p.lab, bestPath, level);
    }
    if (c > 0) {
      bestDepth = level;
      bestInv = Arrays.copyOf(curInv, level + 1);
      bestLab = p.lab.clone();
      bestPath = Arrays.copyOf(path, level);
      System.arraycopy(rows, 0, bestRows = new long[rows.length], 0, rows.length);
    }
    return level;
  }

  /**
   * Records the automorphism mapping leaf {@code from} onto leaf {@code to} and returns the level
   * where the two paths diverge, if the automorphism maps the old path's prefix and branch onto
   * the current ones (then the current branch is an image of a searched one).
   */
  private int automorphism(int[] fromLab, int[] toLab, int[] fromPath, int level) {
    int[] gamma = new int[n];
    for (int i = 0; i < n; i++) {
      gamma[fromLab[i]] = toLab[i];
    }
    generators.add(gamma);
    int movedCount = 0;
    for (int v = 0; v < n; v++) {
      if (gamma[v] != v) {
        movedCount++;
      }
    }
    int[] moved = new int[movedCount];
    for (int v = 0, k = 0; v < n; v++) {
      if (gamma[v] != v) {
        moved[k++] = v;
      }
    }
    supports.add(moved);
    int j = 0;
    while (j < level && j < fromPath.length && fromPath[j] == path[j]) {
      j++;
    }
    for (int i = 0; i <= j && i < level && i < fromPath.length; i++) {
      if (gamma[fromPath[i]] != path[i]) {
        return level;
      }
    }
    return j;
  }

  /** Lexicographic comparison of curInv[1..len] with other[1..otherDepth]. */
  private int comparePrefix(int len, long[] other, int otherDepth) {
    int common = Math.min(len, otherDepth);
    for (int i = 1; i <= common; i++) {
      if (curInv[i] != other[i]) {
        return Long.compare(curInv[i], other[i]);
      }
    }
    return len <= otherDepth ? 0 : 1;
  }

  /** Adjacency rows of the graph relabelled by the discrete partition (vertex lab[i] becomes i). */
  private void relabelledRows(Partition p, long[] out) {
    Arrays.fill(out, 0L);
    int[] off = g.csrOffsets();
    int[] adj = g.csrTargets();
    for (int i = 0; i < n; i++) {
      int v = p.lab[i];
      int base = i * words;
      for (int k = off[v]; k < off[v + 1]; k++) {
        int j = p.pos[adj[k]];
        out[base + (j >>> 6)] |= 1L << j;
      }
    }
  }

  /**
   * Joins, in the union-find {@code parent}, the orbits of the generators from index {@code from}
   * on that fix path[0..level) pointwise: their group is a subgroup of the node's stabilizer.
   */
  private void joinOrbits(int[] parent, int level, int from) {
    for (int k = from; k < generators.size(); k++) {
      int[] gamma = generators.get(k);
      int[] moved = supports.get(k);
      boolean fixes = true;
      for (int i = 0; i < moved.length && fixes; i++) {
        fixes = pathLevel[moved[i]] >= level; // not individualized above this node
      }
      if (!fixes) {
        continue;
      }
      for (int v : moved) {
        int a = find(parent, v);
        int b = find(parent, gamma[v]);
        if (a != b) {
          parent[Math.max(a, b)] = Math.min(a, b);
        }
      }
    }
  }

  private static boolean sameOrbitAsAny(int[] parent, int v, int[] explored, int count) {
    int r = find(parent, v);
    for (int i = 0; i < count; i++) {
      if (find(parent, explored[i]) == r) {
        return true;
      }
    }
    return false;
  }

  private static int find(int[] parent, int v) {
    while (parent[v] != v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  }
}
