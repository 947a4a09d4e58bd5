package io.expresso.cli;

import io.expresso.suite.IndexRanges;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Range options of commands ("A-B", "A", lists of them), parsed by {@link IndexRanges}; bad values are bad usage. */
final class Ranges {

  private Ranges() {}

  /** {from, to}; an {@link IllegalArgumentException} naming the option when malformed. */
  static long[] parse(String option, String text) {
    return IndexRanges.range(option, text);
  }

  /**
   * Comma-separated ranges and numbers ("0-59,110,260-299") as {from, to} ints; a malformed item is
   * bad usage (exit code 2), named with the whole value.
   */
  static List<int[]> options(CommandSpec spec, String option, String text) {
    List<int[]> out = new ArrayList<>();
    try {
      for (long[] r : IndexRanges.list(option, text)) {
        out.add(ints(option, text, r));
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    return out;
  }

  /** {from, to} as ints for an option of a command; a malformed value is bad usage (exit code 2). */
  static int[] option(CommandSpec spec, String option, String text) {
    try {
      return ints(option, text, IndexRanges.range(option, text));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  private static int[] ints(String option, String text, long[] r) {
    if (r[1] > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(option + " '" + text + "': number too large");
    }
    return new int[] {(int) r[0], (int) r[1]};
  }
}
