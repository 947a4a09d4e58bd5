package io.expresso.cli;

import io.expresso.train.PlateauSchedule;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --schedule}: the learning-rate schedule instead of each model's own. */
final class ScheduleOption {

  @Option(names = "--schedule", paramLabel = "S", description = "learning-rate schedule, ReduceLROnPlateau on the"
      + " epoch loss: pytorch (PyTorch's defaults, as BREC's scripts), legacy (factor 0.5, patience 5, floor 1e-6,"
      + " Expresso's before) or plateau:factor=F,patience=P,min-lr=M (default: the model's own, as 'expresso models'"
      + " lists it)")
  String schedule;

  /** The schedule given; null for the model's own. A bad one is bad usage. */
  PlateauSchedule.Settings settings(CommandSpec spec) {
    if (schedule == null) {
      return null;
    }
    try {
      return PlateauSchedule.Settings.parse(schedule);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
  }
}
