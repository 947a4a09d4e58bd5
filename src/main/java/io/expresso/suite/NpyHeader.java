package io.expresso.suite;

import io.expresso.graph.GraphFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The header of a {@code .npy} file, per the NPY format specification: the magic {@code \x93NUMPY},
 * a version (1.0: 2-byte header length; 2.0: 4-byte length; 3.0: 4-byte length and a UTF-8 header),
 * the little-endian header length, then a Python dict literal with {@code descr}, {@code
 * fortran_order} and {@code shape}. Reading it leaves the stream at the first byte of the data.
 *
 * @param version the format version, e.g. "1.0"
 * @param descr the dtype: a string such as {@code '|S9'}, or a list for structured dtypes
 * @param fortranOrder whether the data is in Fortran (column-major) order
 * @param shape the array's shape
 */
record NpyHeader(String version, Object descr, boolean fortranOrder, long[] shape) {

  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

  /** NumPy itself refuses headers over 10,000 bytes unless told otherwise; this is a generous bound. */
  private static final int MAX_HEADER_BYTES = 1 << 20;

  /** Whether {@code head} starts with the NPY magic. */
  static boolean hasMagic(byte[] head) {
    return head.length >= MAGIC.length && Arrays.equals(head, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /**
   * Reads the header from {@code in}.
   *
   * @param name the file name, for error messages
   * @throws GraphFormatException naming the file when the header is missing, truncated or malformed
   */
  static NpyHeader read(InputStream in, String name) throws IOException {
    if (!hasMagic(in.readNBytes(MAGIC.length))) {
      throw new GraphFormatException(name + ": not an NPY file (missing the \\x93NUMPY magic)");
    }
    byte[] version = in.readNBytes(2);
    if (version.length != 2) {
      throw new GraphFormatException(name + ": NPY file ends inside its version");
    }
    int major = version[0] & 0xff;
    String versionText = major + "." + (version[1] & 0xff);
    int lengthBytes = switch (major) {
      case 1 -> 2;
      case 2, 3 -> 4;
      default -> throw new GraphFormatException(name + ": unsupported NPY format version " + versionText
          + " (supported: 1.0, 2.0, 3.0)");
    };
    byte[] len = in.readNBytes(lengthBytes);
    if (len.length != lengthBytes) {
      throw new GraphFormatException(name + ": NPY file ends inside its header length");
    }
    long headerLength = 0;
    for (int i = lengthBytes - 1; i >= 0; i--) {
      headerLength = (headerLength << 8) | (len[i] & 0xff);
    }
    if (headerLength > MAX_HEADER_BYTES) {
      throw new GraphFormatException(name + ": NPY header length " + headerLength + " is implausible");
    }
    byte[] text = in.readNBytes((int) headerLength);
    if (text.length != headerLength) {
      throw new GraphFormatException(name + ": NPY file ends inside its header");
    }
    // Version 3.0 exists only to allow UTF-8 (structured field names); 1.0 and 2.0 are Latin-1.
    String dict = new String(text, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    try {
      Map<String, Object> fields = new PythonLiteral(dict).dict();
      Object descr = fields.get("descr");
      Object fortran = fields.get("fortran_order");
      Object shape = fields.get("shape");
      if (descr == null || !(fortran instanceof Boolean f) || !(shape instanceof long[] s)) {
        throw new IllegalArgumentException("needs 'descr', 'fortran_order' (bool) and 'shape' (tuple), found "
            + dict.strip());
      }
      for (long dim : s) {
        if (dim < 0) {
          throw new IllegalArgumentException("negative dimension in shape " + dict.strip());
        }
      }
      return new NpyHeader(versionText, descr, f, s);
    } catch (IllegalArgumentException e) {
      throw new GraphFormatException(name + ": bad NPY header: " + e.getMessage(), e);
    }
  }

  /** The shape as Python prints it, e.g. {@code (50, 2)} or {@code (7,)}. */
  String shapeText() {
    if (shape.length == 1) {
      return "(" + shape[0] + ",)";
    }
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(shape[i]);
    }
    return sb.append(')').toString();
  }
}
