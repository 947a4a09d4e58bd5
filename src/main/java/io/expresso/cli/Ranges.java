package io.expresso.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses inclusive ranges "A-B" or a single "A" of non-negative integers from options. */
final class Ranges {

  private static final Pattern RANGE = Pattern.compile("(\\d+)(?:-(\\d+))?");

  private Ranges() {}

  /** {from, to}; an {@link IllegalArgumentException} naming the option when malformed. */
  static long[] parse(String option, String text) {
    Matcher m = RANGE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(option + " '" + text + "' is not a range A-B or a number A (non-negative integers)");
    }
    try {
      long from = Long.parseLong(m.group(1));
      long to = m.group(2) == null ? from : Long.parseLong(m.group(2));
      if (from > to) {
        throw new IllegalArgumentException(option + " '" + text + "' runs backwards");
      }
      if (to - from >= 1_000_000) {
        throw new IllegalArgumentException(option + " '" + text + "' spans more than a million values");
      }
      return new long[] {from, to};
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " '" + text + "': number too large");
    }
  }
}
