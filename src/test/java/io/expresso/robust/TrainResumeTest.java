package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.count.Pattern;
import io.expresso.train.TrainingState;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A train job cancelled mid-run resumes on its next attempt from the progress its runner saved. */
public class TrainResumeTest {

  /** 100 ER graphs (30 train: 4 batches of 8), at most 4 epochs: 5 cancellation checks per epoch. */
  public static TrainJob job(String experiment, long seed) {
    return new TrainJob(experiment + "/gin/triangle/er-0.3/s" + seed, "gin:hidden=8,layers=2", Pattern.TRIANGLE,
        "er-0.3", Scale.TINY, seed, null, List.of("er-0.3"), 100, 4);
  }

  /** Runs the job, cancelling it at its 11th check (the first batch of epoch 3): epochs 1-2 are saved. */
  public static void interruptAfterTwoEpochs(JobRunner runner, TrainJob job) {
    AtomicInteger checks = new AtomicInteger();
    assertThatThrownBy(() -> runner.train(job, () -> checks.incrementAndGet() > 10))
        .isInstanceOf(CancellationException.class).hasMessageContaining("epoch 3");
  }

  @Test
  void theNextAttemptContinuesAfterTheSavedEpochAndAThirdDeliveryTrainsNothing() {
    ModelStore store = ModelStore.inMemory();
    TrainJob job = job("r", 1);
    try (JobRunner first = new JobRunner(store, "cpu", 1, null)) {
      interruptAfterTwoEpochs(first, job);
    }
    assertThat(store.get(job.modelId())).as("no checkpoint yet").isEmpty();
    TrainingState saved = TrainingState.fromBytes(store.getProgress(job).orElseThrow());
    assertThat(saved.epoch()).isEqualTo(2);
    assertThat(store.getProgress(job("r", 2))).as("another job under another id sees nothing").isEmpty();
    TrainJob otherSize = new TrainJob(job.modelId(), job.spec(), job.pattern(), job.dataset(), job.scale(),
        job.seed(), null, job.testOn(), 200, 4);
    assertThat(store.getProgress(otherSize)).as("a different job under the same id does not resume it").isEmpty();

    TrainOutcome o;
    try (JobRunner second = new JobRunner(store, "cpu", 1, null)) {
      o = second.train(job);
      assertThat(o.resumedFromEpoch()).isEqualTo(2);
      assertThat(o.epochs()).isEqualTo(4);
      assertThat(o.bestValidationL1()).isLessThanOrEqualTo(saved.bestValidationL1());
      assertThat(RobustProtos.outcome(RobustProtos.result(o).build()).resumedFromEpoch())
          .as("the result message carries it").isEqualTo(2);
    }
    assertThat(store.get(job.modelId())).as("the checkpoint is stored").isPresent();
    assertThat(TrainingState.fromBytes(store.getProgress(job).orElseThrow()).epoch())
        .as("the finished state stays").isEqualTo(4);

    // Kafka delivers at least once: the same job again resumes the finished state and trains nothing
    byte[] checkpoint = store.get(job.modelId()).orElseThrow();
    AtomicInteger epochs = new AtomicInteger();
    try (JobRunner third = new JobRunner(store, "cpu", 1, null)) {
      TrainOutcome again = third.train(job, () -> false, (j, max, e) -> epochs.incrementAndGet());
      assertThat(epochs).as("no epoch trained").hasValue(0);
      assertThat(again.resumedFromEpoch()).isEqualTo(4);
      assertThat(again.epochs()).isEqualTo(4);
      assertThat(again.bestEpoch()).isEqualTo(o.bestEpoch());
      assertThat(again.bestValidationL1()).isEqualTo(o.bestValidationL1());
      assertThat(again.errors()).isEqualTo(o.errors());
      assertThat(again.correctTest()).isEqualTo(o.correctTest());
    }
    assertThat(store.get(job.modelId()).orElseThrow()).as("the same model stored again").isEqualTo(checkpoint);
  }
}
