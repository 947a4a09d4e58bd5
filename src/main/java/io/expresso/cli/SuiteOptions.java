package io.expresso.cli;

import io.expresso.graph.GraphFormatException;
import io.expresso.suite.Suite;
import io.expresso.suite.SuiteSpecs;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** What {@code --suite SPEC [--pairs a-b,c,...]} means to baseline, eval and publish brec. */
final class SuiteOptions {

  private SuiteOptions() {}

  /**
   * The suite of {@code suiteSpec}, restricted to {@code pairs} (ranges and numbers, comma-separated)
   * when given. A bad spec or range, or ranges that select nothing, is bad usage (exit 2); an unreadable suite file is a failure
   * (exit 1), so its {@link GraphFormatException} passes through.
   */
  static Suite load(CommandSpec spec, String suiteSpec, String pairs) {
    List<int[]> ranges = pairs == null ? null : Ranges.options(spec, "--pairs", pairs);
    Suite suite;
    try {
      suite = SuiteSpecs.load(suiteSpec);
    } catch (GraphFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (ranges == null) {
      return suite;
    }
    Suite restricted = suite.restrict(i -> ranges.stream().anyMatch(r -> i >= r[0] && i <= r[1]));
    if (restricted.size() == 0) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--pairs " + pairs + " selects no pair of suite " + suiteSpec + " (" + suite.size() + " pairs)");
    }
    return restricted;
  }
}
