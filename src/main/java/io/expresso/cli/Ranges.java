package io.expresso.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
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

  /**
   * Comma-separated ranges and numbers ("0-59,110,260-299") as {from, to} ints; a malformed item is
   * bad usage (exit code 2), named with the whole value.
   */
  static List<int[]> options(CommandSpec spec, String option, String text) {
    List<int[]> out = new ArrayList<>();
    for (String item : text.split(",", -1)) {
      if (item.isBlank()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            option + " '" + text + "' has an empty item (write ranges and numbers separated by commas: 0-59,110)");
      }
      out.add(option(spec, option, item));
    }
    return out;
  }

  /** {from, to} as ints for an option of a command; a malformed value is bad usage (exit code 2). */
  static int[] option(CommandSpec spec, String option, String text) {
    try {
      long[] r = parse(option, text);
      if (r[1] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(option + " '" + text + "': number too large");
      }
      return new int[] {(int) r[0], (int) r[1]};
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
