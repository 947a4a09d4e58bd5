package io.expresso.graph;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * graph6 and sparse6 codecs, exactly as in Brendan McKay's format description (formats.txt of
 * nauty). Headers ({@code >>graph6<<}, {@code >>sparse6<<}) are optional on input and never
 * written. A sparse6 string starts with {@code ':'}; anything else is read as graph6.
 */
public final class Graph6 {

  private static final int BIAS = 63;
  private static final String G6_HEADER = ">>graph6<<";
  private static final String S6_HEADER = ">>sparse6<<";

  private Graph6() {}

  // ---------------------------------------------------------------------------------------------
  // Decoding

  /** Decodes one graph6 or sparse6 string (header optional, trailing whitespace ignored). */
  public static Graph decode(String text) {
    String s = body(text);
    if (s.charAt(0) == '&') {
      throw new GraphFormatException("digraph6 ('&') is not supported: graphs must be undirected");
    }
    if (s.charAt(0) == ';') {
      throw new GraphFormatException("incremental sparse6 (';') is not supported");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 63 || c > 126) {
        if (!(i == 0 && c == ':')) {
          throw new GraphFormatException(
              "invalid character '" + printable(c) + "' at position " + i + " (graph6 bytes are 63..126)");
        }
      }
    }
    return s.charAt(0) == ':' ? decodeSparse6(s) : decodeGraph6(s);
  }

  /**
   * The vertex count a graph6 or sparse6 string declares, read from its header alone: lets a caller
   * refuse a graph too big for it before decoding allocates anything.
   */
  public static long declaredVertices(String text) {
    String s = body(text);
    int from = s.charAt(0) == ':' || s.charAt(0) == ';' || s.charAt(0) == '&' ? 1 : 0;
    for (int i = from; i < Math.min(s.length(), from + 8); i++) {
      if (s.charAt(i) < 63 || s.charAt(i) > 126) {
        throw new GraphFormatException("invalid character '" + printable(s.charAt(i)) + "' at position " + i
            + " (graph6 bytes are 63..126)");
      }
    }
    return readSize(s, from)[0];
  }

  /**
   * The edge count of a graph6 string (its set bits, counted without decoding), or for sparse6 an
   * upper bound (each edge takes at least one 6-bit character's worth of bits): lets a caller
   * refuse a graph with too many edges before decoding it.
   */
  public static long edgeBound(String text) {
    String s = body(text);
    if (s.charAt(0) == ':' || s.charAt(0) == ';') {
      return s.length();
    }
    int from = (int) readSize(s, 0)[1];
    long bits = 0;
    for (int i = from; i < s.length(); i++) {
      bits += Integer.bitCount((s.charAt(i) - BIAS) & 0x3F);
    }
    return bits;
  }

  /** The string without surrounding whitespace and its optional {@code >>graph6<<}/{@code >>sparse6<<} header. */
  private static String body(String text) {
    String s = text.strip();
    if (s.startsWith(G6_HEADER)) {
      s = s.substring(G6_HEADER.length());
    } else if (s.startsWith(S6_HEADER)) {
      s = s.substring(S6_HEADER.length());
    }
    if (s.isEmpty()) {
      throw new GraphFormatException("empty graph6 string");
    }
    return s;
  }

  private static String printable(char c) {
    return c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\u%04x", (int) c);
  }

  /** Reads N(n) starting at {@code pos}; returns {n, next position}. */
  private static long[] readSize(String s, int pos) {
    if (pos >= s.length()) {
      throw new GraphFormatException("string ends before the vertex count");
    }
    int c = s.charAt(pos) - BIAS;
    if (c < 63) {
      return new long[] {c, pos + 1};
    }
    if (pos + 1 < s.length() && s.charAt(pos + 1) - BIAS == 63) {
      if (pos + 8 > s.length()) {
        throw new GraphFormatException("string ends inside the 8-byte vertex count");
      }
      return new long[] {sixBits(s, pos + 2, 6), pos + 8};
    }
    if (pos + 4 > s.length()) {
      throw new GraphFormatException("string ends inside the 4-byte vertex count");
    }
    return new long[] {sixBits(s, pos + 1, 3), pos + 4};
  }

  private static long sixBits(String s, int from, int count) {
    long v = 0;
    for (int i = 0; i < count; i++) {
      v = (v << 6) | (s.charAt(from + i) - BIAS);
    }
    return v;
  }

  private static int checkedSize(long n) {
    if (n > Graph.MAX_VERTICES) {
      throw new GraphFormatException(
          "graph has " + n + " vertices, more than the limit of " + Graph.MAX_VERTICES);
    }
    return (int) n;
  }

  private static Graph decodeGraph6(String s) {
    long[] size = readSize(s, 0);
    int n = checkedSize(size[0]);
    int pos = (int) size[1];
    long bits = (long) n * (n - 1) / 2;
    long expectedBytes = (bits + 5) / 6;
    if (s.length() - pos != expectedBytes) {
      throw new GraphFormatException(
          "graph6 body is " + (s.length() - pos) + " bytes, expected " + expectedBytes + " for " + n + " vertices");
    }
    GraphBuilder b = new GraphBuilder(n);
    int bit = 0;
    for (int j = 1; j < n; j++) {
      for (int i = 0; i < j; i++, bit++) {
        int word = s.charAt(pos + bit / 6) - BIAS;
        if ((word >> (5 - bit % 6) & 1) != 0) {
          b.addEdge(i, j);
        }
      }
    }
    // Padding bits must be zero (spec: "pad on the right with zeros").
    if (bits % 6 != 0) {
      int last = s.charAt(s.length() - 1) - BIAS;
      int padBits = (int) (6 - bits % 6);
      if ((last & ((1 << padBits) - 1)) != 0) {
        throw new GraphFormatException("graph6 padding bits are not zero");
      }
    }
    return b.build();
  }

  private static Graph decodeSparse6(String s) {
    long[] size = readSize(s, 1);
    int n = checkedSize(size[0]);
    int pos = (int) size[1];
    int k = bitsFor(n - 1);
    GraphBuilder b = new GraphBuilder(n);
    long totalBits = (long) (s.length() - pos) * 6;
    long bit = 0;
    long v = 0;
    while (true) {
      if (bit + 1 + k > totalBits) {
        break; // the rest is padding
      }
      int flag = readBit(s, pos, bit);
      bit++;
      long x = 0;
      for (int i = 0; i < k; i++, bit++) {
        x = (x << 1) | readBit(s, pos, bit);
      }
      if (flag == 1) {
        v++;
      }
      if (x > v) {
        v = x;
      } else if (v < n) {
        if (x == v) {
          throw new GraphFormatException("self-loop at vertex " + v);
        }
        if (b.hasEdge((int) x, (int) v)) {
          throw new GraphFormatException("duplicate edge {" + x + ", " + v + "}");
        }
        b.addEdge((int) x, (int) v);
      } else {
        break;
      }
    }
    return b.build();
  }

  private static int readBit(String s, int pos, long bit) {
    int word = s.charAt(pos + (int) (bit / 6)) - BIAS;
    return (word >> (5 - (int) (bit % 6))) & 1;
  }

  /** Bits needed to write {@code x} in binary (0 for x = 0). */
  private static int bitsFor(long x) {
    int k = 0;
    while (x > 0) {
      x >>= 1;
      k++;
    }
    return k;
  }

  // ---------------------------------------------------------------------------------------------
  // Encoding

  /** The graph6 string of {@code g} (no header, no newline). */
  public static String encode(Graph g) {
    int n = g.n();
    StringBuilder sb = new StringBuilder();
    writeSize(sb, n);
    int acc = 0;
    int filled = 0;
    for (int j = 1; j < n; j++) {
      for (int i = 0; i < j; i++) {
        acc = (acc << 1) | (g.adjacent(i, j) ? 1 : 0);
        if (++filled == 6) {
          sb.append((char) (acc + BIAS));
          acc = 0;
          filled = 0;
        }
      }
    }
    if (filled > 0) {
      sb.append((char) ((acc << (6 - filled)) + BIAS));
    }
    return sb.toString();
  }

  /** The sparse6 string of {@code g}, starting with ':' (no header, no newline). */
  public static String encodeSparse6(Graph g) {
    int n = g.n();
    StringBuilder sb = new StringBuilder(":");
    writeSize(sb, n);
    int k = bitsFor(n - 1);
    BitWriter w = new BitWriter(sb);
    int v = 0;
    // Edges ordered by larger endpoint, then smaller endpoint.
    for (int hi = 0; hi < n; hi++) {
      for (int t = 0; t < g.degree(hi); t++) {
        int lo = g.neighbor(hi, t);
        if (lo > hi) {
          break;
        }
        if (hi == v) {
          w.write(0, 1);
          w.write(lo, k);
        } else if (hi == v + 1) {
          w.write(1, 1);
          w.write(lo, k);
          v = hi;
        } else {
          w.write(1, 1);
          w.write(hi, k);
          w.write(0, 1);
          w.write(lo, k);
          v = hi;
        }
      }
    }
    int pad = (6 - w.filled) % 6;
    // Special case from the spec: padding of 1s could otherwise decode as an extra edge.
    if (k < 6 && n == (1 << k) && v == n - 2 && pad >= k + 1) {
      w.write(0, 1);
      pad--;
    }
    w.write((1 << pad) - 1, pad);
    return sb.toString();
  }

  private static void writeSize(StringBuilder sb, long n) {
    if (n < 63) {
      sb.append((char) (n + BIAS));
    } else if (n <= 258047) {
      sb.append((char) 126);
      for (int shift = 12; shift >= 0; shift -= 6) {
        sb.append((char) (((n >> shift) & 63) + BIAS));
      }
    } else {
      sb.append((char) 126).append((char) 126);
      for (int shift = 30; shift >= 0; shift -= 6) {
        sb.append((char) (((n >> shift) & 63) + BIAS));
      }
    }
  }

  private static final class BitWriter {
    private final StringBuilder sb;
    private int acc;
    private int filled;

    BitWriter(StringBuilder sb) {
      this.sb = sb;
    }

    void write(long value, int bits) {
      for (int i = bits - 1; i >= 0; i--) {
        acc = (acc << 1) | (int) ((value >> i) & 1);
        if (++filled == 6) {
          sb.append((char) (acc + BIAS));
          acc = 0;
          filled = 0;
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Files

  /**
   * Reads every graph of a graph6/sparse6 file, one per non-blank line. Errors name the file and
   * the 1-based line.
   */
  public static List<Graph> readFile(Path file) throws IOException {
    List<Graph> graphs = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        try {
          graphs.add(decode(line));
        } catch (GraphFormatException e) {
          throw e.at(file.getFileName() + " line " + lineNo);
        }
      }
    }
    return graphs;
  }

  /** Writes one graph6 string per line. */
  public static void writeFile(Path file, List<Graph> graphs) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (Graph g : graphs) {
      sb.append(encode(g)).append('\n');
    }
    Files.writeString(file, sb, StandardCharsets.US_ASCII);
  }
}
