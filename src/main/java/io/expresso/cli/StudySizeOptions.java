package io.expresso.cli;

import io.expresso.robust.RobustnessExperiment;
import io.expresso.robust.Scale;
import picocli.CommandLine.Option;

/**
 * The robustness study's scale and what may replace its sizes, as {@code experiment robustness} and
 * {@code publish train} take them (0: the scale's or the recipe's own).
 */
final class StudySizeOptions {

  @Option(names = "--scale", paramLabel = "S", defaultValue = "small",
      description = "tiny, small or paper: dataset size, seeds, epochs, width (default: ${DEFAULT-VALUE})")
  String scale;

  @Option(names = "--graphs", paramLabel = "N", defaultValue = "0",
      description = "graphs per dataset instead of the scale's (split 30/20/50; the paper: 5000)")
  int graphs;

  @Option(names = "--max-epochs", paramLabel = "E", defaultValue = "0",
      description = "the most training epochs instead of the scale's cap (early stopping may end sooner);"
          + " the result records it")
  int maxEpochs;

  @Option(names = "--learning-rate", paramLabel = "LR", defaultValue = "0",
      description = "Adam's initial learning rate for every model instead of its recipe's (see docs/robustness.md);"
          + " model ids (checkpoint keys) then carry it")
  float learningRate;

  @Option(names = "--batch-size", paramLabel = "B", defaultValue = "0",
      description = "graphs per training step for every model instead of its recipe's; model ids (checkpoint keys)"
          + " then carry it")
  int batchSize;

  /** The scale named; an unknown name is an {@link IllegalArgumentException} naming it. */
  Scale scale() {
    return Scale.fromName(scale);
  }

  /** The sizes given, with {@code seeds} seeds per model and pattern (0: the scale's). */
  RobustnessExperiment.Sizes sizes(int seeds) {
    return new RobustnessExperiment.Sizes(graphs, seeds, maxEpochs, learningRate, batchSize);
  }
}
