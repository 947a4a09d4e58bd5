package io.expresso.suite;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A NumPy dtype that can hold graph6 strings, and how its raw bytes decode: {@code S<n>} is n
 * bytes, {@code U<n>} is n UTF-32 code units in the stated byte order, both padded with trailing
 * NULs that are not part of the string (NumPy strips them too); {@code O} is an object array, whose
 * items are pickled Python objects ({@link NumpyPickle}).
 *
 * @param kind what the items are
 * @param itemBytes bytes per item of a fixed-width dtype (0 for objects)
 * @param bigEndian whether UTF-32 code units are big-endian ({@code >U}); NumPy writes {@code <U}
 *     on every little-endian machine
 */
record NpyStringDtype(Kind kind, int itemBytes, boolean bigEndian) {

  /** The item kinds. */
  enum Kind { BYTES, UNICODE, OBJECT }

  /** The dtypes accepted, for error messages. */
  static final String ACCEPTED = "'|S<n>' (fixed-width byte strings), '<U<n>' or '>U<n>' (fixed-width unicode),"
      + " or '|O' (an object array of bytes, str, numpy.bytes_ or numpy.str_)";

  // Byte order ('|' not applicable, '<' little, '>' big, '=' native), kind, width.
  private static final Pattern DESCR = Pattern.compile("([|<>=]?)([SUO])(\\d*)");

  /**
   * The dtype a descr string such as {@code '|S9'} or {@code '<U30'} names.
   *
   * @throws IllegalArgumentException naming the descr and the accepted ones when it is not a string
   *     dtype this reader supports
   */
  static NpyStringDtype parse(Object descr) {
    Matcher m = descr instanceof String s ? DESCR.matcher(s) : null;
    if (m == null || !m.matches()) {
      throw unsupported(descr);
    }
    char order = m.group(1).isEmpty() ? '|' : m.group(1).charAt(0);
    char kind = m.group(2).charAt(0);
    if (kind == 'O') {
      return new NpyStringDtype(Kind.OBJECT, 0, false);
    }
    long width;
    try {
      width = Long.parseLong(m.group(3));
    } catch (NumberFormatException e) {
      throw unsupported(descr); // no width, or too many digits
    }
    long bytes = kind == 'S' ? width : 4 * width;
    if (width < 1 || bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("NPY dtype '" + descr + "' has an item width of " + width
          + (width < 1 ? "; a graph6 string needs at least 1" : ", too large"));
    }
    if (kind == 'S') {
      return new NpyStringDtype(Kind.BYTES, (int) bytes, false);
    }
    if (order == '|') {
      throw unsupported(descr); // a unicode dtype always states its byte order
    }
    // '=' is native order: NumPy only writes it for a platform it does not know; assume little.
    return new NpyStringDtype(Kind.UNICODE, (int) bytes, order == '>');
  }

  private static IllegalArgumentException unsupported(Object descr) {
    String shown = descr instanceof String ? "'" + descr + "'" : descr + " (a structured dtype)";
    return new IllegalArgumentException("NPY dtype " + shown + " is not an array of strings; accepted: " + ACCEPTED);
  }

  /**
   * The string held by {@code length} raw bytes from {@code offset}, trailing NULs removed. Bytes
   * map one-to-one to characters (Latin-1), so a stray byte reaches the graph6 decoder as itself.
   *
   * @throws IllegalArgumentException if unicode data has a partial or invalid code point
   */
  String decode(byte[] raw, int offset, int length) {
    if (kind == Kind.BYTES) {
      int end = offset + length;
      while (end > offset && raw[end - 1] == 0) {
        end--;
      }
      return new String(raw, offset, end - offset, StandardCharsets.ISO_8859_1);
    }
    if (kind != Kind.UNICODE) {
      throw new IllegalStateException("an object dtype has no raw string data");
    }
    if (length % 4 != 0) {
      throw new IllegalArgumentException("UTF-32 data of " + length + " bytes is not whole code points");
    }
    int end = length / 4;
    while (end > 0 && codePoint(raw, offset + 4 * (end - 1)) == 0) {
      end--;
    }
    StringBuilder sb = new StringBuilder(end);
    for (int i = 0; i < end; i++) {
      int cp = codePoint(raw, offset + 4 * i);
      if (!Character.isValidCodePoint(cp) || (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)) {
        throw new IllegalArgumentException("invalid UTF-32 code point 0x" + Integer.toHexString(cp)
            + " at character " + i);
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private int codePoint(byte[] raw, int at) {
    int b0 = raw[at] & 0xff;
    int b1 = raw[at + 1] & 0xff;
    int b2 = raw[at + 2] & 0xff;
    int b3 = raw[at + 3] & 0xff;
    return bigEndian ? (b0 << 24) | (b1 << 16) | (b2 << 8) | b3 : (b3 << 24) | (b2 << 16) | (b1 << 8) | b0;
  }
}
