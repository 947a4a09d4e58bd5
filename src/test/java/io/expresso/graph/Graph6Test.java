package io.expresso.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** graph6 / sparse6 against formats.txt (nauty): known strings, size encodings, round trips, bad input. */
class Graph6Test {

  static Graph random(int n, double p, long seed) {
    Random rnd = new Random(seed);
    GraphBuilder b = new GraphBuilder(n);
    for (int u = 0; u < n; u++) {
      for (int v = u + 1; v < n; v++) {
        if (rnd.nextDouble() < p) {
          b.addEdge(u, v);
        }
      }
    }
    return b.build();
  }

  // ---- known strings ------------------------------------------------------------------------

  @Test
  void formatsTxtGraph6Example() {
    // formats.txt: n = 5, edges 0-2 0-4 1-3 3-4; x = 0 10 010 1001 padded -> 81 99 -> "DQc".
    Graph g = Graph6.decode("DQc");
    assertThat(g.n()).isEqualTo(5);
    assertThat(g.edges()).isDeepEqualTo(new int[][] {{0, 2}, {0, 4}, {1, 3}, {3, 4}});
    assertThat(Graph6.encode(g)).isEqualTo("DQc");
  }

  @Test
  void petersenAndK4() {
    Graph petersen = Graph6.decode(">>graph6<<IheA@GUAo");
    assertThat(petersen.n()).isEqualTo(10);
    assertThat(petersen.m()).isEqualTo(15);
    assertThat(GraphProperties.stronglyRegularParameters(petersen)).containsExactly(10, 3, 0, 1);
    assertThat(Graph6.encode(petersen)).isEqualTo("IheA@GUAo");

    Graph k4 = Graph6.decode("C~");
    assertThat(k4.n()).isEqualTo(4);
    assertThat(k4.m()).isEqualTo(6);
    assertThat(Graph6.encode(k4)).isEqualTo("C~");
    assertThat(Graph6.encode(Graph.empty(0))).isEqualTo("?");
    assertThat(Graph6.encode(Graph.empty(1))).isEqualTo("@");
  }

  @Test
  void formatsTxtSparse6Example() {
    // formats.txt: n = 7 (N = 'F'), k = 3, edges 0-1 0-2 1-2 5-6. By hand, (b, x) units:
    // (1,000) v=1 edge 0-1; (1,000) v=2 edge 0-2; (0,001) edge 1-2; (1,110) v=3 < 6 so v := 6;
    // (0,101) edge 5-6; then 4 padding 1s: 100010 000001 111001 011111 = 34 1 57 31 -> "a@x^".
    Graph g = Graph6.decode(":Fa@x^");
    assertThat(g.n()).isEqualTo(7);
    assertThat(g.edges()).isDeepEqualTo(new int[][] {{0, 1}, {0, 2}, {1, 2}, {5, 6}});
    assertThat(Graph6.encodeSparse6(g)).isEqualTo(":Fa@x^");
    assertThat(Graph6.decode(">>sparse6<<:Fa@x^")).isEqualTo(g);
  }

  @Test
  void sparse6PaddingSpecialCase() {
    // n = 4, k = 2, edges 0-2 and 1-2. Bits: 1 10 0 00 (v := 2, edge 0-2), 0 01 (edge 1-2) = 9 bits,
    // 3 to pad. Vertex n-2 = 2 has an edge, n-1 = 3 none, pad >= k+1: formats.txt says pad with one
    // 0 and then 1s: 110000 001011 -> 'o' 'J'. Padding with 111 instead (":CoN") would decode as a
    // spurious loop at vertex 3.
    Graph g = Graph.fromEdges(4, 0, 2, 1, 2);
    assertThat(Graph6.encodeSparse6(g)).isEqualTo(":CoJ");
    assertThat(Graph6.decode(":CoJ")).isEqualTo(g);
    assertThatThrownBy(() -> Graph6.decode(":CoN")).isInstanceOf(GraphFormatException.class)
        .hasMessage("self-loop at vertex 3");
  }

  // ---- size encoding N(n) -------------------------------------------------------------------

  @Test
  void sizeEncodingBoundaries() {
    assertThat(Graph6.encode(Graph.empty(62))).startsWith("}");
    assertThat(Graph6.encode(Graph.empty(62))).hasSize(1 + (62 * 61 / 2 + 5) / 6);
    // 63 = 000000 000000 111111 -> '~' '?' '?' '~'
    assertThat(Graph6.encode(Graph.empty(63))).startsWith("~??~").hasSize(4 + (63 * 62 / 2 + 5) / 6);
    // 64 = 000000 000001 000000 -> '~' '?' '@' '?'
    assertThat(Graph6.encode(Graph.empty(64))).startsWith("~?@?");
    assertThat(Graph6.encodeSparse6(Graph.empty(64))).startsWith(":~?@?");
    // 258047, the largest 4-byte size: 111110 111111 111111 -> "~}~~"; decoded correctly, then
    // refused as over the limit.
    assertThatThrownBy(() -> Graph6.decode(":~}~~"))
        .hasMessage("graph has 258047 vertices, more than the limit of " + Graph.MAX_VERTICES);
    // 258048 needs the 8-byte form: '~' '~' then 36 bits 000000 000000 000000 111111 000000 000000.
    assertThatThrownBy(() -> Graph6.decode(":~~???~??"))
        .hasMessage("graph has 258048 vertices, more than the limit of " + Graph.MAX_VERTICES);
    assertThatThrownBy(() -> Graph6.decode("~~???~??"))
        .hasMessage("graph has 258048 vertices, more than the limit of " + Graph.MAX_VERTICES);
    // One over the vertex limit, 4-byte form: 32769 = 001000 000000 000001.
    assertThatThrownBy(() -> Graph6.decode(":~G?@"))
        .hasMessage("graph has 32769 vertices, more than the limit of 32768");
  }

  @Test
  void largeSparseGraphRoundTripsThroughTheFourByteSize() {
    int n = 5000;
    Random rnd = new Random(7);
    GraphBuilder b = new GraphBuilder(n);
    for (int i = 0; i < 3000; i++) {
      int u = rnd.nextInt(n);
      int v = rnd.nextInt(n);
      if (u != v && !b.hasEdge(u, v)) {
        b.addEdge(u, v);
      }
    }
    Graph g = b.build();
    String s6 = Graph6.encodeSparse6(g);
    assertThat(s6).startsWith(":~@MG"); // 5000 = 000001 001110 001000
    assertThat(Graph6.decode(s6)).isEqualTo(g);
  }

  // ---- round trips --------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 62, 63, 64, 65, 127, 128, 129, 200})
  void randomGraphsRoundTrip(int n) {
    for (double p : new double[] {0.0, 0.05, 0.3, 0.7, 1.0}) {
      for (long seed = 0; seed < 4; seed++) {
        Graph g = random(n, p, seed * 1000 + n);
        assertThat(Graph6.decode(Graph6.encode(g))).isEqualTo(g);
        assertThat(Graph6.decode(Graph6.encodeSparse6(g))).isEqualTo(g);
      }
    }
  }

  @Test
  void everyLabelledGraphOnAtMostFiveVerticesRoundTrips() {
    // Exhaustive: covers every sparse6 padding situation for n = 2 and n = 4 (the special case).
    for (int n = 0; n <= 5; n++) {
      int pairs = n * (n - 1) / 2;
      for (int mask = 0; mask < 1 << pairs; mask++) {
        GraphBuilder b = new GraphBuilder(n);
        int bit = 0;
        for (int v = 1; v < n; v++) {
          for (int u = 0; u < v; u++, bit++) {
            if ((mask >> bit & 1) != 0) {
              b.addEdge(u, v);
            }
          }
        }
        Graph g = b.build();
        assertThat(Graph6.decode(Graph6.encode(g))).isEqualTo(g);
        assertThat(Graph6.decode(Graph6.encodeSparse6(g))).isEqualTo(g);
      }
    }
  }

  @Test
  void filesRoundTripAndMixFormats(@TempDir Path dir) throws IOException {
    List<Graph> graphs = List.of(random(10, 0.4, 1), Graph.empty(0), random(70, 0.1, 2));
    Path f = dir.resolve("g.g6");
    Graph6.writeFile(f, graphs);
    assertThat(Graph6.readFile(f)).isEqualTo(graphs);
    Files.writeString(f, ">>graph6<<DQc\r\n\n:Fa@x^\n");
    assertThat(Graph6.readFile(f)).containsExactly(Graph6.decode("DQc"), Graph6.decode(":Fa@x^"));
  }

  // ---- bad input ----------------------------------------------------------------------------

  @Test
  void badStringsEachGetTheirOwnMessage() {
    assertThatThrownBy(() -> Graph6.decode("")).isInstanceOf(GraphFormatException.class)
        .hasMessage("empty graph6 string");
    assertThatThrownBy(() -> Graph6.decode("D Qc")).isInstanceOf(GraphFormatException.class)
        .hasMessage("invalid character ' ' at position 1 (graph6 bytes are 63..126)");
    assertThatThrownBy(() -> Graph6.decode("DQ!")).hasMessage("invalid character '!' at position 2 (graph6 bytes are 63..126)");
    assertThatThrownBy(() -> Graph6.decode("DQ\u00e9")).hasMessageContaining("invalid character '\\u00e9' at position 2");
    assertThatThrownBy(() -> Graph6.decode("DQ")).hasMessage("graph6 body is 1 bytes, expected 2 for 5 vertices");
    assertThatThrownBy(() -> Graph6.decode("DQcc")).hasMessage("graph6 body is 3 bytes, expected 2 for 5 vertices");
    // 10 pair bits + 2 padding bits in "DQc": 'd' = 'c' + 1 sets a padding bit.
    assertThatThrownBy(() -> Graph6.decode("DQd")).hasMessage("graph6 padding bits are not zero");
    assertThatThrownBy(() -> Graph6.decode("~?")).hasMessage("string ends inside the 4-byte vertex count");
    assertThatThrownBy(() -> Graph6.decode("~~??")).hasMessage("string ends inside the 8-byte vertex count");
    assertThatThrownBy(() -> Graph6.decode(":")).hasMessage("string ends before the vertex count");
    assertThatThrownBy(() -> Graph6.decode("&DQc")).hasMessageContaining("digraph6");
    assertThatThrownBy(() -> Graph6.decode(";Fa@x^")).hasMessageContaining("incremental sparse6");
    // sparse6 n = 4, k = 2: (1,10) v := 2; (0,00) edge 0-2; (0,00) edge 0-2 again -> 110000 000000.
    assertThatThrownBy(() -> Graph6.decode(":Co?")).hasMessage("duplicate edge {0, 2}");
    // (1,10) v := 2; (0,10) a loop 2-2 -> 110000 010 + pad 111.
    assertThatThrownBy(() -> Graph6.decode(":CoV")).hasMessage("self-loop at vertex 2");
  }

  @Test
  void fileErrorsNameFileAndLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("pairs.g6");
    Files.writeString(f, "DQc\n\nC~\nDQ\n");
    assertThatThrownBy(() -> Graph6.readFile(f)).isInstanceOf(GraphFormatException.class)
        .hasMessage("pairs.g6 line 4: graph6 body is 1 bytes, expected 2 for 5 vertices");
  }

  @Test
  void builderRejectsWhatASimpleGraphCannotHold() {
    assertThatThrownBy(() -> Graph.fromEdges(3, 0, 1, 1, 1)).isInstanceOf(GraphFormatException.class)
        .hasMessage("self-loop at vertex 1");
    assertThatThrownBy(() -> Graph.fromEdges(3, 0, 1, 1, 0)).hasMessage("duplicate edge {0, 1}");
    assertThatThrownBy(() -> Graph.fromEdges(3, 0, 3)).hasMessage("vertex 3 out of range 0..2");
    assertThatThrownBy(() -> Graph.fromEdges(3, -1, 2)).hasMessage("vertex -1 out of range 0..2");
    assertThatThrownBy(() -> new GraphBuilder(Graph.MAX_VERTICES + 1))
        .hasMessage("graph has 32769 vertices, more than the limit of 32768");
    assertThatThrownBy(() -> new GraphBuilder(-2)).hasMessage("negative vertex count -2");
  }
}
