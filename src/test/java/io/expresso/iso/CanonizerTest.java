package io.expresso.iso;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CanonizerTest {

  @Test
  void certificatesAgreeWithBruteForceOnSmallRandomColouredGraphs() {
    Random rnd = new Random(7);
    for (int trial = 0; trial < 400; trial++) {
      int n = 1 + rnd.nextInt(7);
      Graph g = TestGraphs.erdosRenyi(n, rnd.nextDouble(), rnd);
      // h: either a relabelled copy of g or a fresh graph with the same n
      Graph h = rnd.nextBoolean() ? TestGraphs.shuffle(g, rnd) : TestGraphs.erdosRenyi(n, rnd.nextDouble(), rnd);
      long[] cg = new long[n];
      long[] ch = new long[n];
      int k = 1 + rnd.nextInt(2);
      for (int v = 0; v < n; v++) {
        cg[v] = rnd.nextInt(k);
        ch[v] = rnd.nextInt(k);
      }
      boolean expected = TestGraphs.bruteForceIsomorphic(g, h, cg, ch);
      boolean actual = Canonizer.certificate(g, cg).equals(Canonizer.certificate(h, ch));
      assertThat(actual).as("trial %d: %s %s vs %s %s", trial, g, java.util.Arrays.toString(cg), h,
          java.util.Arrays.toString(ch)).isEqualTo(expected);
    }
  }

  @Test
  void certificateIsInvariantUnderRelabellingOfHardFamilies() {
    Random rnd = new Random(11);
    Graph[] graphs = {
      TestGraphs.rook4x4(), TestGraphs.shrikhande(), TestGraphs.paley(29),
      TestGraphs.cfi(TestGraphs.complete(4)), TestGraphs.cfi(TestGraphs.petersen(), 0),
      TestGraphs.randomRegular(40, 3, rnd), Graph.empty(30), TestGraphs.complete(12)
    };
    for (Graph g : graphs) {
      Certificate c = Canonizer.certificate(g);
      for (int t = 0; t < 5; t++) {
        assertThat(Canonizer.certificate(TestGraphs.shuffle(g, rnd))).as("%s", g).isEqualTo(c);
      }
      assertThat(Isomorphism.isomorphic(c.canonicalGraph(), g)).isTrue();
    }
  }

  @Test
  void tellsApartStronglyRegularAndCfiPairs() {
    assertThat(Isomorphism.isomorphic(TestGraphs.rook4x4(), TestGraphs.shrikhande())).isFalse();
    Graph k4 = TestGraphs.complete(4);
    assertThat(Isomorphism.isomorphic(TestGraphs.cfi(k4), TestGraphs.cfi(k4, 2))).isFalse();
    assertThat(Isomorphism.isomorphic(TestGraphs.cfi(k4, 1), TestGraphs.cfi(k4, 4))).isTrue();
    Graph p = TestGraphs.petersen();
    assertThat(Isomorphism.isomorphic(TestGraphs.cfi(p), TestGraphs.cfi(p, 3))).isFalse();
    assertThat(Isomorphism.isomorphic(TestGraphs.cfi(p, 0, 7), TestGraphs.cfi(p))).isTrue();
  }

  @Test
  void certificateTextIsCanonicalGraph6WithColourValues() {
    Graph path = Graph.fromEdges(3, 0, 1, 1, 2);
    Certificate plain = Canonizer.certificate(path);
    assertThat(plain.toString()).isEqualTo(io.expresso.graph.Graph6.encode(plain.canonicalGraph()));
    assertThat(Isomorphism.isomorphic(plain.canonicalGraph(), path)).isTrue();
    Certificate coloured = Canonizer.certificate(path, new long[] {5, 9, 5});
    assertThat(coloured.toString()).endsWith("[5, 5, 9]");
    assertThat(coloured.colours()).containsExactly(5, 5, 9);
    assertThat(coloured).isNotEqualTo(plain);
    assertThat(Canonizer.certificate(Graph.empty(0)).n()).isZero();
  }

  @Test
  void isomorphismMapIsAnIsomorphism() {
    Random rnd = new Random(3);
    Graph g = TestGraphs.cfi(TestGraphs.petersen(), 4);
    Graph h = TestGraphs.shuffle(g, rnd);
    int[] map = Isomorphism.isomorphism(g, h);
    assertThat(map).isNotNull();
    assertThat(g.relabel(map)).isEqualTo(h);
  }
}
