package io.expresso.cli;

import io.expresso.graph.GraphFormatException;
import io.expresso.suite.Suite;
import io.expresso.suite.SuiteSpecs;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --suite SPEC [--pairs a-b,c,...]}: the pairs baseline, eval, publish brec and experiment brec judge. */
final class SuiteOptions {

  @Option(names = "--suite", required = true, paramLabel = "SPEC", description = "suite spec: " + SuiteSpecs.FORMS)
  String suiteSpec;

  @Option(names = "--pairs", paramLabel = "A-B[,C...]", description = "only these pairs: ranges A-B (inclusive) and"
      + " single indices, comma-separated, e.g. 0-59,110,260-299 (default: every pair of the suite)")
  String pairs;

  /**
   * The suite of {@code --suite}, restricted to {@code --pairs} when given. A bad spec or range, or
   * ranges that select nothing, is bad usage (exit 2); an unreadable suite file is a failure (exit 1),
   * so its {@link GraphFormatException} passes through.
   */
  Suite load(CommandSpec spec) {
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
