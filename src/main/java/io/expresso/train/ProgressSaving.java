package io.expresso.train;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Resumable training: the state to continue from (null to start afresh) and where each epoch's
 * state goes — every {@code everyEpochs} epochs or once {@code every} has passed since the last
 * save, whichever comes first, and once when the run has finished (by its epoch cap or early
 * stopping): resuming that state trains nothing and gives the same model, so a job delivered twice
 * is trained once.
 *
 * @param resumeFrom a state saved by an earlier attempt of the same run, or null
 * @param everyEpochs save after this many epochs since the last save (0: by time only)
 * @param every save once this long has passed since the last save (null or zero: by epochs only)
 * @param save receives the state; an exception from it fails the run
 */
public record ProgressSaving(TrainingState resumeFrom, int everyEpochs, Duration every, Consumer<TrainingState> save) {

  /** Nothing saved, nothing resumed. */
  public static final ProgressSaving NONE = new ProgressSaving(null, 0, null, s -> {});

  public ProgressSaving {
    if (everyEpochs < 0) {
      throw new IllegalArgumentException("save interval must be at least 0 epochs, got " + everyEpochs);
    }
  }

  boolean saves() {
    return everyEpochs > 0 || (every != null && !every.isZero());
  }

  boolean due(int epochsSinceSave, long nanosSinceSave) {
    return (everyEpochs > 0 && epochsSinceSave >= everyEpochs)
        || (every != null && !every.isZero() && nanosSinceSave >= every.toNanos());
  }
}
