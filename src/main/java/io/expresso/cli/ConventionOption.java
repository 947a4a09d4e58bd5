package io.expresso.cli;

import io.expresso.stats.Convention;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --convention}: how T² is scaled (BREC's official code or the textbook statistic). */
final class ConventionOption {

  @Option(names = "--convention", paramLabel = "brec|hotelling", defaultValue = "brec",
      description = "T² scaling: brec (the official code, no factor q; default) or hotelling (textbook, q·D̄ᵀS⁺D̄)")
  String convention;

  /** The convention named; a bad name is bad usage. */
  Convention convention(CommandSpec spec) {
    try {
      return Convention.parse(convention);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
