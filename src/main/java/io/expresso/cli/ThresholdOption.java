package io.expresso.cli;

import io.expresso.stats.ThresholdRule;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --threshold}: the T² every pair must exceed, instead of each model's own (its BREC script's). */
final class ThresholdOption {

  @Option(names = "--threshold", paramLabel = "rpc|rapc|T2", description = "fixed RPC threshold, adaptive RAPC or a"
      + " given T² value such as 5, for every model (default: each model's BREC script's, rpc for all but dropgnn's 5)")
  String threshold;

  /** The rule given, at significance {@code alpha}; null for each model's own. A bad one is bad usage naming the option. */
  ThresholdRule rule(CommandSpec spec, double alpha) {
    if (threshold == null) {
      return null;
    }
    try {
      return ThresholdRule.of(threshold, alpha);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--threshold: " + e.getMessage());
    }
  }
}
