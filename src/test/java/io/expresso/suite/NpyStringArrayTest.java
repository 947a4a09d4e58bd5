package io.expresso.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.graph.GraphFormatException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every NumPy encoding of a graph6 list, read from files NumPy wrote (src/test/resources/
 * io/expresso/suite/npy, made by make_fixtures.py there), and every refusal.
 */
class NpyStringArrayTest {

  /** What every readable fixture holds (make_fixtures.py GRAPHS). */
  static final List<String> GRAPHS = List.of("C~", "DQc", "E?Bw", "Cr", "D?{");

  static Path fixture(String name) {
    try {
      return Path.of(NpyStringArrayTest.class.getResource("npy/" + name).toURI());
    } catch (URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("missing test fixture npy/" + name, e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "bytes.npy", "bytes_v2.npy", "unicode.npy", "unicode_big_endian.npy", "unicode_v3.npy",
      "object_bytes.npy", "object_str.npy", "object_numpy_bytes.npy", "object_numpy_str.npy",
      "object_mixed_p2.npy", "object_mixed_p3.npy", "object_mixed_p4.npy", "object_mixed_p5.npy",
      "object_mixed_numpy1_p2.npy", "object_mixed_numpy1_p3.npy", "object_mixed_numpy1_p4.npy",
      "object_mixed_numpy1_p5.npy"})
  void everyEncodingReadsTheSameGraphs(String name) throws IOException {
    assertThat(NpyStringArray.read(fixture(name))).isEqualTo(GRAPHS);
  }

  /** Guards the fixtures: a regenerated file must still be the encoding its name promises. */
  @Test
  void fixturesAreTheEncodingsTheirNamesSay() throws IOException {
    assertThat(header("bytes.npy")).extracting(NpyHeader::version, NpyHeader::descr).containsExactly("1.0", "|S4");
    assertThat(header("bytes_v2.npy")).extracting(NpyHeader::version, NpyHeader::descr).containsExactly("2.0", "|S4");
    assertThat(header("unicode.npy").descr()).isEqualTo("<U4");
    assertThat(header("unicode_big_endian.npy").descr()).isEqualTo(">U4");
    assertThat(header("unicode_v3.npy")).extracting(NpyHeader::version, NpyHeader::descr).containsExactly("3.0", "<U4");
    for (int protocol = 2; protocol <= 5; protocol++) {
      for (String numpy : List.of("", "numpy1_")) {
        byte[] pickle = payload("object_mixed_" + numpy + "p" + protocol + ".npy");
        assertThat(pickle[0] & 0xff).as("PROTO opcode").isEqualTo(0x80);
        assertThat(pickle[1]).as("pickle protocol").isEqualTo((byte) protocol);
        String text = new String(pickle, StandardCharsets.ISO_8859_1);
        assertThat(text).contains(numpy.isEmpty() ? "numpy._core.multiarray" : "numpy.core.multiarray");
        assertThat(text).contains("scalar").doesNotContain(numpy.isEmpty() ? "numpy.core." : "numpy._core.");
      }
    }
    assertThat(new String(payload("object_numpy_str.npy"), StandardCharsets.ISO_8859_1)).contains("scalar", "U2");
  }

  private static NpyHeader header(String name) throws IOException {
    try (InputStream in = Files.newInputStream(fixture(name))) {
      return NpyHeader.read(in, name);
    }
  }

  private static byte[] payload(String name) throws IOException {
    try (InputStream in = Files.newInputStream(fixture(name))) {
      NpyHeader.read(in, name);
      return in.readAllBytes();
    }
  }

  @Test
  void unsupportedDtypesAreNamedWithTheAcceptedOnes() {
    assertThatThrownBy(() -> NpyStringArray.read(fixture("float64.npy")))
        .isInstanceOf(GraphFormatException.class)
        .hasMessage("float64.npy: NPY dtype '<f8' is not an array of strings; accepted: '|S<n>' (fixed-width byte"
            + " strings), '<U<n>' or '>U<n>' (fixed-width unicode), or '|O' (an object array of bytes, str,"
            + " numpy.bytes_ or numpy.str_)");
  }

  @Test
  void onlyOneDimensionalArraysInCOrder(@TempDir Path dir) throws IOException {
    // BREC's raw files for some categories are (pairs, 2) arrays: refused, not flattened silently.
    assertThatThrownBy(() -> NpyStringArray.read(fixture("pairs_2d.npy")))
        .hasMessage("pairs_2d.npy: NPY array has shape (2, 2), 2 dimensions; expected a 1-D list of graph6 strings");
    assertThatThrownBy(() -> NpyStringArray.read(fixture("fortran_2d.npy")))
        .hasMessageStartingWith("fortran_2d.npy: NPY array has shape (2, 2)");
    // NumPy never marks a 1-D array Fortran-ordered, so this header is patched by hand.
    Path fortran = patch(dir, "bytes.npy", "fortran.npy", "'fortran_order': False", "'fortran_order':  True");
    assertThatThrownBy(() -> NpyStringArray.read(fortran))
        .hasMessage("fortran.npy: NPY array is stored in Fortran order; only C order is read");
  }

  @Test
  void anEmptyArrayIsAnError() {
    assertThatThrownBy(() -> NpyStringArray.read(fixture("empty.npy")))
        .isInstanceOf(GraphFormatException.class)
        .hasMessage("empty.npy: NPY array is empty (shape (0,)); expected graph6 strings");
  }

  @Test
  void objectsThatAreNotStringsAreLocated() {
    assertThatThrownBy(() -> NpyStringArray.read(fixture("object_int.npy")))
        .hasMessage("object_int.npy entry 1: expected a string, found a NumPy scalar of dtype '<i8'");
    assertThatThrownBy(() -> NpyStringArray.read(fixture("object_none.npy")))
        .hasMessage("object_none.npy entry 1: expected a string (bytes, str, numpy.bytes_ or numpy.str_), found None");
  }

  @Test
  void truncatedFilesAreErrors(@TempDir Path dir) throws IOException {
    Path fixed = truncate(dir, "bytes.npy", 3);
    assertThatThrownBy(() -> NpyStringArray.read(fixed))
        .hasMessage("bytes.npy: NPY data ends inside entry 4 of 5");
    Path pickled = truncate(dir, "object_mixed_p4.npy", 40);
    assertThatThrownBy(() -> NpyStringArray.read(pickled))
        .isInstanceOf(GraphFormatException.class)
        .hasMessageStartingWith("object_mixed_p4.npy: cannot unpickle the NPY object array: ");
    // A declared count the file cannot hold is refused before anything is allocated for it.
    Path huge = writeNpy(dir, "huge.npy", 1, "{'descr': '|S4', 'fortran_order': False, 'shape': (4000000000000,), }",
        new byte[8]);
    assertThatThrownBy(() -> NpyStringArray.read(huge))
        .hasMessage("huge.npy: NPY header declares 4000000000000 entries of 4 bytes, more than the file holds");
  }

  @Test
  void headersAreCheckedPerTheFormatSpec(@TempDir Path dir) throws IOException {
    Path v9 = writeNpy(dir, "v9.npy", 9, "{}", new byte[0]);
    assertThatThrownBy(() -> NpyStringArray.read(v9))
        .hasMessage("v9.npy: unsupported NPY format version 9.0 (supported: 1.0, 2.0, 3.0)");
    Path structured = writeNpy(dir, "rec.npy", 1,
        "{'descr': [('g6', '|S4')], 'fortran_order': False, 'shape': (1,), }", new byte[4]);
    assertThatThrownBy(() -> NpyStringArray.read(structured))
        .hasMessageStartingWith("rec.npy: NPY dtype [[g6, |S4]] (a structured dtype) is not an array of strings; accepted: '|S<n>'");
    Path noOrder = writeNpy(dir, "u.npy", 1, "{'descr': '|U1', 'fortran_order': False, 'shape': (1,), }", new byte[4]);
    assertThatThrownBy(() -> NpyStringArray.read(noOrder))
        .hasMessageStartingWith("u.npy: NPY dtype '|U1' is not an array of strings");
    Path zero = writeNpy(dir, "s0.npy", 1, "{'descr': '|S0', 'fortran_order': False, 'shape': (1,), }", new byte[4]);
    assertThatThrownBy(() -> NpyStringArray.read(zero))
        .hasMessage("s0.npy: NPY dtype '|S0' has an item width of 0; a graph6 string needs at least 1");
    Path negative = writeNpy(dir, "neg.npy", 1, "{'descr': '|S4', 'fortran_order': False, 'shape': (-1,), }", new byte[4]);
    assertThatThrownBy(() -> NpyStringArray.read(negative))
        .hasMessageStartingWith("neg.npy: bad NPY header: negative dimension in shape");
    Path notNpy = dir.resolve("text.npy");
    Files.writeString(notNpy, "C~\n");
    assertThatThrownBy(() -> NpyStringArray.read(notNpy))
        .hasMessage("text.npy: not an NPY file (missing the \\x93NUMPY magic)");
  }

  @Test
  void unicodeIsDecodedNotReplaced(@TempDir Path dir) throws IOException {
    // U+20AC in entry 0: kept as itself, so the graph6 decoder reports it instead of reading '?'.
    byte[] euro = {(byte) 0xAC, 0x20, 0, 0};
    Path f = writeNpy(dir, "euro.npy", 1, "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", euro);
    assertThat(NpyStringArray.read(f)).containsExactly("\u20ac");
    byte[] bad = {0, 0, 0x11, 0}; // 0x110000, past the last code point
    Path g = writeNpy(dir, "bad.npy", 1, "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", bad);
    assertThatThrownBy(() -> NpyStringArray.read(g))
        .hasMessage("bad.npy entry 0: invalid UTF-32 code point 0x110000 at character 0");
  }

  /** A fixture with {@code cut} bytes removed from its end, under its own name in {@code dir}. */
  private static Path truncate(Path dir, String name, int cut) throws IOException {
    byte[] bytes = Files.readAllBytes(fixture(name));
    return Files.write(dir.resolve(name), Arrays.copyOf(bytes, bytes.length - cut));
  }

  /** A fixture with one header text replaced by another of the same length. */
  private static Path patch(Path dir, String name, String as, String from, String to) throws IOException {
    String text = new String(Files.readAllBytes(fixture(name)), StandardCharsets.ISO_8859_1);
    assertThat(text).contains(from);
    assertThat(to).hasSameSizeAs(from);
    return Files.write(dir.resolve(as), text.replace(from, to).getBytes(StandardCharsets.ISO_8859_1));
  }

  /** An NPY file with the given version, header text and data, per the format specification. */
  static Path writeNpy(Path dir, String name, int major, String header, byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
    byte[] h = (header + "\n").getBytes(StandardCharsets.UTF_8);
    out.write(h.length & 0xff);
    out.write(h.length >> 8);
    if (major >= 2) {
      out.write(0);
      out.write(0);
    }
    out.write(h);
    out.write(data);
    return Files.write(dir.resolve(name), out.toByteArray());
  }
}
