package io.expresso.suite;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Inclusive ranges of non-negative integers, "A-B" or "A", and comma-separated lists of them
 * ("0-59,110,260-299"): the one parser behind {@code --pairs}, {@code --seeds}, {@code --fold} and
 * a suite spec's {@code indices=}. Errors are {@link IllegalArgumentException}s that name what was
 * being read and the text.
 */
public final class IndexRanges {

  private static final Pattern RANGE = Pattern.compile("(\\d+)(?:\\s*-\\s*(\\d+))?");
  /** A range this long is a typo (it would also be expanded or iterated value by value). */
  private static final long MAX_SPAN = 1_000_000;

  private IndexRanges() {}

  /** One range as {from, to}. */
  public static long[] range(String what, String text) {
    Matcher m = RANGE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(what + " '" + text + "' is not a range A-B or a number A (non-negative integers)");
    }
    try {
      long from = Long.parseLong(m.group(1));
      long to = m.group(2) == null ? from : Long.parseLong(m.group(2));
      if (from > to) {
        throw new IllegalArgumentException(what + " '" + text + "' runs backwards");
      }
      if (to - from >= MAX_SPAN) {
        throw new IllegalArgumentException(what + " '" + text + "' spans more than a million values");
      }
      return new long[] {from, to};
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + " '" + text + "': number too large");
    }
  }

  /** A comma-separated list of ranges, each as {from, to}, in the order given. */
  public static List<long[]> list(String what, String text) {
    List<long[]> out = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      if (item.isBlank()) {
        throw new IllegalArgumentException(
            what + " '" + text + "' has an empty item (write ranges and numbers separated by commas: 0-59,110)");
      }
      out.add(range(what, item));
    }
    return out;
  }

  /** A list's values one by one, in the order given, as ints. */
  public static int[] values(String what, String text) {
    List<Integer> out = new ArrayList<>();
    for (long[] r : list(what, text)) {
      if (r[1] > Integer.MAX_VALUE || out.size() + (r[1] - r[0]) >= MAX_SPAN) {
        throw new IllegalArgumentException(what + " '" + text + "' holds too many or too large values");
      }
      for (long v = r[0]; v <= r[1]; v++) {
        out.add((int) v);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }
}
