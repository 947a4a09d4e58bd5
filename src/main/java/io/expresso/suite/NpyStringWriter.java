package io.expresso.suite;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Writes a list of ASCII strings as a 1-D NumPy array of fixed-width byte strings {@code |S<n>},
 * byte for byte what {@code np.save} writes for a list of {@code bytes} (BREC's dataset scripts):
 * NPY 1.0, the header padded with spaces to a multiple of 64 bytes and ended by a newline, then
 * each item NUL-padded to the longest one's width.
 */
public final class NpyStringWriter {

  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

  /** NumPy aligns the data to 64 bytes. */
  private static final int ALIGN = 64;

  /** NumPy leaves room in the header for the shape to grow to this many digits. */
  private static final int GROWTH_AXIS_MAX_DIGITS = 21;

  private NpyStringWriter() {}

  /**
   * Writes {@code items} to {@code file}.
   *
   * @throws IllegalArgumentException if the list is empty or an item holds a NUL or a non-ASCII
   *     character (NumPy would strip the one and cannot store the other as {@code |S})
   */
  public static void writeBytes(Path file, List<String> items) throws IOException {
    if (items.isEmpty()) {
      throw new IllegalArgumentException(file.getFileName() + ": no strings to write");
    }
    int width = 1;
    for (int i = 0; i < items.size(); i++) {
      String s = items.get(i);
      for (int k = 0; k < s.length(); k++) {
        char c = s.charAt(k);
        if (c == 0 || c > 0x7f) {
          throw new IllegalArgumentException(file.getFileName() + " entry " + i + ": character U+"
              + String.format(Locale.ROOT, "%04X", (int) c) + " cannot be stored as an ASCII byte string");
        }
      }
      width = Math.max(width, s.length());
    }
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      out.write(header(width, items.size()));
      byte[] item = new byte[width];
      for (String s : items) {
        Arrays.fill(item, (byte) 0);
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, item, 0, b.length);
        out.write(item);
      }
    }
  }

  /**
   * Magic, version, little-endian header length and the padded dict, as NumPy's {@code
   * _write_array_header} lays them out: the dict, room for the shape to grow to 21 digits, then
   * spaces and a newline up to the next multiple of 64 bytes (a whole 64 more when already aligned).
   */
  static byte[] header(int width, int count) {
    String count10 = String.valueOf(count);
    String dict = "{'descr': '|S" + width + "', 'fortran_order': False, 'shape': (" + count10 + ",), }"
        + " ".repeat(GROWTH_AXIS_MAX_DIGITS - count10.length());
    int hlen = dict.length() + 1;
    int prefix = MAGIC.length + 2 + 2; // version 1.0: a 2-byte length, ample for this short dict
    int padding = ALIGN - (prefix + hlen) % ALIGN;
    int headerLength = hlen + padding;
    byte[] out = new byte[prefix + headerLength];
    System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
    out[6] = 1;
    out[7] = 0;
    out[8] = (byte) headerLength;
    out[9] = (byte) (headerLength >>> 8);
    byte[] text = dict.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(text, 0, out, prefix, text.length);
    Arrays.fill(out, prefix + text.length, out.length - 1, (byte) ' ');
    out[out.length - 1] = '\n';
    return out;
  }
}
