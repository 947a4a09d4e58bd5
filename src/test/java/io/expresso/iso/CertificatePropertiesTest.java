package io.expresso.iso;

import static org.assertj.core.api.Assertions.assertThat;

import io.expresso.graph.Graph;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Certificates are invariant under relabelling, colours included. */
class CertificatePropertiesTest {

  @Property(tries = 300)
  void certificateInvariantUnderRelabelling(@ForAll @IntRange(min = 0, max = 40) int n,
      @ForAll @IntRange(min = 0, max = 100) int density, @ForAll @IntRange(min = 1, max = 4) int colourCount,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    Graph g = TestGraphs.erdosRenyi(n, density / 100.0, rnd);
    long[] colours = new long[n];
    for (int v = 0; v < n; v++) {
      colours[v] = rnd.nextInt(colourCount) * 1000L - 7;
    }
    int[] perm = TestGraphs.permutation(n, rnd);
    Graph h = g.relabel(perm);
    long[] hColours = new long[n];
    for (int v = 0; v < n; v++) {
      hColours[perm[v]] = colours[v];
    }
    CanonicalLabeling cg = Canonizer.canonize(g, colours);
    assertThat(Canonizer.certificate(h, hColours)).isEqualTo(cg.certificate());
    // The canonical labelling really relabels g into the certificate's graph.
    assertThat(g.relabel(cg.position())).isEqualTo(cg.certificate().canonicalGraph());
    // Every automorphism found is one: it preserves edges and colours.
    for (int[] gamma : cg.generators()) {
      assertThat(g.relabel(gamma)).isEqualTo(g);
      for (int v = 0; v < n; v++) {
        assertThat(colours[gamma[v]]).isEqualTo(colours[v]);
      }
    }
  }

  @Property(tries = 100)
  void regularGraphsCertificateInvariant(@ForAll @IntRange(min = 3, max = 15) int half,
      @ForAll @IntRange(min = 2, max = 5) int degree, @ForAll long seed) {
    Random rnd = new Random(seed);
    int n = 2 * half;
    Graph g = TestGraphs.randomRegular(n, Math.min(degree, n - 1), rnd);
    assertThat(Canonizer.certificate(TestGraphs.shuffle(g, rnd))).isEqualTo(Canonizer.certificate(g));
  }
}
