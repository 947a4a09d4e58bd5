package io.expresso.wl;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.EgoNet;
import io.expresso.graph.Graph;
import io.expresso.graph.GraphBuilder;
import io.expresso.graph.LabeledGraph;
import io.expresso.iso.Isomorphism;
import io.expresso.suite.Constructions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Canonical certificates against brute-force rooted isomorphism over all permutations. */
class RootedCertificateTest {

  private static boolean rootedIsomorphic(Graph g, int rg, Graph h, int rh) {
    if (g.n() != h.n() || g.m() != h.m()) {
      return false;
    }
    int[] perm = new int[g.n()];
    boolean[] used = new boolean[g.n()];
    perm[rg] = rh;
    used[rh] = true;
    return extend(g, h, perm, used, 0, rg);
  }

  private static boolean extend(Graph g, Graph h, int[] perm, boolean[] used, int v, int rg) {
    int n = g.n();
    if (v == n) {
      return true;
    }
    if (v == rg) {
      return consistent(g, h, perm, v) && extend(g, h, perm, used, v + 1, rg);
    }
    for (int x = 0; x < n; x++) {
      if (!used[x]) {
        perm[v] = x;
        used[x] = true;
        if (consistent(g, h, perm, v) && extend(g, h, perm, used, v + 1, rg)) {
          return true;
        }
        used[x] = false;
      }
    }
    return false;
  }

  /** Edges among vertices 0..v and the root are preserved. */
  private static boolean consistent(Graph g, Graph h, int[] perm, int v) {
    for (int u = 0; u < v; u++) {
      if (g.adjacent(u, v) != h.adjacent(perm[u], perm[v])) {
        return false;
      }
    }
    return true;
  }

  @Test
  void certificatesDecideRootedIsomorphismExactly() {
    Random rnd = new Random(11);
    int isomorphic = 0;
    int different = 0;
    for (int i = 0; i < 400; i++) {
      int n = 1 + rnd.nextInt(7);
      Graph g = TestGraphs.random(rnd, n, 0.5);
      int rg = rnd.nextInt(n);
      Graph h;
      int rh;
      if (rnd.nextBoolean()) {
        int[] p = TestGraphs.permutation(rnd, n);
        h = g.relabel(p);
        rh = rnd.nextInt(4) == 0 ? rnd.nextInt(n) : p[rg]; // sometimes the "wrong" root
      } else {
        h = TestGraphs.random(rnd, n, 0.5);
        rh = rnd.nextInt(n);
      }
      boolean expected = rootedIsomorphic(g, rg, h, rh);
      boolean actual = EgoNetWl.rootedCertificate(g, rg).equals(EgoNetWl.rootedCertificate(h, rh));
      assertThat(actual).as("%s@%d vs %s@%d", g, rg, h, rh).isEqualTo(expected);
      if (expected) {
        isomorphic++;
      } else {
        different++;
      }
    }
    assertThat(isomorphic).isGreaterThan(50);
    assertThat(different).isGreaterThan(50);
  }

  private static boolean rootedIsomorphicByIsoPackage(Graph g, int rg, Graph h, int rh) {
    int[] lg = new int[g.n()];
    lg[rg] = 1;
    int[] lh = new int[h.n()];
    lh[rh] = 1;
    return Isomorphism.isomorphic(new LabeledGraph(g, lg, null, null), new LabeledGraph(h, lh, null, null), true, false);
  }

  @Test
  void certificatesAgreeWithTheIsoPackageOnLargerEgoNets() {
    // Independent oracle beyond brute-force sizes: the iso package's labelled canonical forms,
    // with the root as the only vertex labelled 1. Ego-nets of sparse random graphs and of
    // strongly regular and CFI graphs from the suite constructions.
    Random rnd = new Random(12);
    List<Graph> hosts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      hosts.add(TestGraphs.random(rnd, 30, 0.12));
      hosts.add(TestGraphs.randomRegular(rnd, 24, 3));
    }
    hosts.add(Constructions.shrikhande());
    hosts.add(Constructions.rook(4));
    hosts.addAll(Constructions.cfiPair(Constructions.complete(4)));
    int isomorphic = 0;
    for (Graph host : hosts) {
      for (int radius = 1; radius <= 2; radius++) {
        for (int t = 0; t < 6; t++) {
          EgoNet a = EgoNet.of(host, rnd.nextInt(host.n()), radius);
          EgoNet b = EgoNet.of(host, rnd.nextInt(host.n()), radius);
          int[] p = TestGraphs.permutation(rnd, b.graph().n());
          Graph bg = b.graph().relabel(p);
          boolean expected = rootedIsomorphicByIsoPackage(a.graph(), 0, bg, p[0]);
          boolean actual = EgoNetWl.rootedCertificate(a.graph(), 0).equals(EgoNetWl.rootedCertificate(bg, p[0]));
          assertThat(actual).as("%s vs %s", a.graph(), bg).isEqualTo(expected);
          isomorphic += expected ? 1 : 0;
        }
      }
    }
    assertThat(isomorphic).isPositive();
  }

  @Test
  void handlesHighlySymmetricGraphsThroughAutomorphismPruning() {
    // The rook's graph and the Shrikhande graph are vertex-transitive with 1152 and 192
    // automorphisms; a relabelled copy must get the same certificate, the two different ones.
    Random rnd = new Random(3);
    Graph rook = TestGraphs.rook4x4();
    Graph shrikhande = TestGraphs.shrikhande();
    int[] p = TestGraphs.permutation(rnd, 16);
    assertThat(EgoNetWl.rootedCertificate(rook, 0)).isEqualTo(EgoNetWl.rootedCertificate(rook.relabel(p), p[5]));
    assertThat(EgoNetWl.rootedCertificate(rook, 0)).isNotEqualTo(EgoNetWl.rootedCertificate(shrikhande, 0));
    // The empty graph on 12 vertices: 11! leaves without pruning.
    assertThat(EgoNetWl.rootedCertificate(Graph.empty(12), 3)).isEqualTo(EgoNetWl.rootedCertificate(Graph.empty(12), 7));
  }

  @Test
  void theRootIsDistinguished() {
    Graph star = Graph.fromEdges(4, 0, 1, 0, 2, 0, 3);
    assertThat(EgoNetWl.rootedCertificate(star, 0)).isNotEqualTo(EgoNetWl.rootedCertificate(star, 1));
    assertThat(EgoNetWl.rootedCertificate(star, 1)).isEqualTo(EgoNetWl.rootedCertificate(star, 2));
  }

  @Test
  void pruningKeepsLargeSymmetricInputsCheap() {
    Graph g = new GraphBuilder(40).build();
    // 39 interchangeable vertices: 39! leaves without pruning, a short path of leaves with it.
    assertThat(EgoNetWl.rootedCertificate(g, 0)).isEqualTo(EgoNetWl.rootedCertificate(g, 39));
  }
}
