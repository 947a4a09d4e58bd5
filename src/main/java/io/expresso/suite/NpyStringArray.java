package io.expresso.suite;

import io.expresso.graph.GraphFormatException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.razorvine.pickle.objects.ClassDict;

/**
 * Reads a one-dimensional NumPy array of strings from a {@code .npy} file, in every encoding NumPy
 * gives a list of graph6 strings:
 *
 * <ul>
 *   <li>fixed-width byte strings {@code |S<n>} — what {@code np.save} writes for a list of {@code
 *       bytes} (BREC's own dataset script, its raw category files);
 *   <li>fixed-width unicode {@code <U<n>} (or {@code >U<n>}) — {@code np.save} of a list of {@code str};
 *   <li>object arrays {@code |O} of {@code bytes}, {@code str}, {@code numpy.bytes_} or {@code
 *       numpy.str_}, pickled with protocol 2 to 5 by NumPy 1.x or 2.x (the official {@code
 *       brec_v3.npy}), read by {@link NumpyPickle}.
 * </ul>
 *
 * <p>NPY format versions 1.0, 2.0 and 3.0 are read ({@link NpyHeader}); the array must be 1-D and
 * in C order. Every refusal is a {@link GraphFormatException} naming the file and what is wrong.
 */
public final class NpyStringArray {

  private NpyStringArray() {}

  /** Whether {@code file} starts with the NPY magic. */
  public static boolean isNpy(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return NpyHeader.hasMagic(in.readNBytes(6));
    }
  }

  /**
   * The array's items, trailing NUL padding removed; byte strings map one byte to one character.
   *
   * @throws GraphFormatException naming the file (and the entry) when it is not a 1-D C-order NPY
   *     array of strings, holds no entries, or is truncated
   */
  public static List<String> read(Path file) throws IOException {
    return read(file, false);
  }

  /**
   * Like {@link #read}, but a 2-D array of shape (k, 2) is accepted too and returned row by row:
   * BREC's raw category files store their pairs either as consecutive entries or as rows.
   */
  public static List<String> readPairs(Path file) throws IOException {
    return read(file, true);
  }

  private static List<String> read(Path file, boolean pairRows) throws IOException {
    String name = file.getFileName().toString();
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
      NpyHeader header = NpyHeader.read(in, name);
      NpyStringDtype dtype;
      try {
        dtype = NpyStringDtype.parse(header.descr());
      } catch (IllegalArgumentException e) {
        throw new GraphFormatException(name + ": " + e.getMessage(), e);
      }
      long[] shape = header.shape();
      boolean rows = pairRows && shape.length == 2 && shape[1] == 2;
      if (shape.length != 1 && !rows) {
        throw new GraphFormatException(name + ": NPY array has shape " + header.shapeText() + ", "
            + shape.length + " dimensions; expected a 1-D list of graph6 strings"
            + (pairRows ? " or a (k, 2) array of pairs" : ""));
      }
      if (header.fortranOrder()) {
        throw new GraphFormatException(name + ": NPY array is stored in Fortran order; only C order is read");
      }
      long count = rows ? shape[0] * 2 : shape[0];
      if (count == 0) {
        throw new GraphFormatException(name + ": NPY array is empty (shape " + header.shapeText()
            + "); expected graph6 strings");
      }
      return dtype.kind() == NpyStringDtype.Kind.OBJECT
          ? readObjects(in, name, count)
          : readFixedWidth(in, name, dtype, count, Files.size(file));
    }
  }

  /** Fixed-width items follow the header back to back. */
  private static List<String> readFixedWidth(InputStream in, String name, NpyStringDtype dtype, long count,
      long fileSize) throws IOException {
    // Checked against the file size before anything is allocated for the declared count.
    if (count > fileSize / dtype.itemBytes()) {
      throw new GraphFormatException(name + ": NPY header declares " + count + " entries of "
          + dtype.itemBytes() + " bytes, more than the file holds");
    }
    List<String> out = new ArrayList<>((int) Math.min(count, 1 << 16));
    byte[] item = new byte[dtype.itemBytes()];
    for (int i = 0; i < count; i++) {
      if (in.readNBytes(item, 0, item.length) != item.length) {
        throw new GraphFormatException(name + ": NPY data ends inside entry " + i + " of " + count);
      }
      try {
        out.add(dtype.decode(item, 0, item.length));
      } catch (IllegalArgumentException e) {
        throw new GraphFormatException(name + " entry " + i + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static List<String> readObjects(InputStream in, String name, long count) throws IOException {
    List<?> items;
    try {
      items = NumpyPickle.items(in);
    } catch (IllegalArgumentException | IOException e) {
      throw new GraphFormatException(name + ": cannot unpickle the NPY object array: " + e.getMessage(), e);
    }
    if (items.size() != count) {
      throw new GraphFormatException(name + ": NPY header says " + count + " entries, the pickled array holds "
          + items.size());
    }
    List<String> out = new ArrayList<>(items.size());
    for (int i = 0; i < items.size(); i++) {
      try {
        out.add(text(items.get(i)));
      } catch (IllegalArgumentException e) {
        throw new GraphFormatException(name + " entry " + i + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  /** One pickled item as text: bytes, str, numpy.bytes_ or numpy.str_. */
  private static String text(Object item) {
    if (item instanceof byte[] bytes) {
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
    if (item instanceof String s) {
      return s;
    }
    if (item instanceof NumpyPickle.Scalar scalar) {
      NpyStringDtype dtype;
      try {
        dtype = NpyStringDtype.parse(scalar.descr());
      } catch (IllegalArgumentException e) {
        dtype = null;
      }
      if (dtype == null || dtype.kind() == NpyStringDtype.Kind.OBJECT) {
        throw new IllegalArgumentException("expected a string, found a NumPy scalar of dtype '" + scalar.descr() + "'");
      }
      return dtype.decode(scalar.raw(), 0, scalar.raw().length);
    }
    String found = item == null ? "None"
        : item instanceof ClassDict pythonObject ? pythonObject.getClassName() : item.getClass().getSimpleName();
    throw new IllegalArgumentException("expected a string (bytes, str, numpy.bytes_ or numpy.str_), found " + found);
  }
}
