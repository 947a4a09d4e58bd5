package io.expresso.cli;

import io.expresso.engine.CudnnDeterminism;
import io.expresso.engine.ThreadPolicy;
import io.expresso.engine.TorchThreadState;
import io.expresso.metrics.LabelGuard;
import java.util.Optional;

/**
 * The process-wide settings given as {@code -D} properties (or their environment variables), checked
 * before any command runs: a bad one is a usage error (exit code 2) named in one line, not a failure
 * deep inside the command that first reads it.
 */
final class ProcessSettings {

  private ProcessSettings() {}

  /** The first bad setting's message, or empty when every one reads. */
  static Optional<String> problem() {
    try {
      ThreadPolicy.intraOpThreads();
      CudnnDeterminism.wanted();
      TorchThreadState.wanted();
      LabelGuard.fromEnvironment();
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }
}
