package io.expresso.train;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.count.RobustnessData;
import io.expresso.model.RegressorSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A count-regression run interrupted after epoch k and resumed from its saved state (real GIN, real data). */
class TrainingResumeTest {

  private static final RegressorSpec SPEC = RegressorSpec.parse("gin:hidden=16,layers=2");
  private static final int EPOCHS = 8;
  private static final int K = 3;

  @Test
  void aResumedRunContinuesAfterTheSavedEpochWithItsBestSoFar() {
    CountingSplit d = RobustnessData.erdosRenyi(200, RobustnessData.ER_IN, 5);
    CountRegressionTrainer.Settings settings = new CountRegressionTrainer.Settings(EPOCHS, 8, 0.01f, 7, "cpu",
        0.5f, 1, 0);
    CountRegressionTrainer trainer = new CountRegressionTrainer();

    // uninterrupted, saving after every epoch
    List<TrainingState> whole = new ArrayList<>();
    List<CountRegressionTrainer.Epoch> wholeEpochs = new ArrayList<>();
    try (TrainedCountModel m = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings,
        wholeEpochs::add, () -> false, new ProgressSaving(null, 1, null, whole::add)).model()) {
      assertThat(whole).as("saved after every epoch, the last once as the finished state").hasSize(EPOCHS);
    }

    // interrupted: the token is set once epoch K is reported, so epoch K+1 never finishes
    List<TrainingState> saved = new ArrayList<>();
    AtomicBoolean cancel = new AtomicBoolean();
    assertThatThrownBy(() -> trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings,
        e -> cancel.set(e.epoch() == K), cancel::get, new ProgressSaving(null, 1, null, saved::add)))
        .isInstanceOf(CancellationException.class).hasMessageContaining("epoch " + (K + 1));
    TrainingState atK = TrainingState.fromBytes(saved.get(saved.size() - 1).toBytes()); // as it travels
    assertThat(atK.epoch()).isEqualTo(K);
    // the same seed trains the same first K epochs: the interrupted run saved what the whole run saved
    assertThat(atK.parameters()).isEqualTo(whole.get(K - 1).parameters());
    assertThat(atK.bestValidationL1()).isEqualTo(whole.get(K - 1).bestValidationL1());
    assertThat(atK.orderState()).isEqualTo(whole.get(K - 1).orderState());
    assertThat(atK.plateau()).isEqualTo(whole.get(K - 1).plateau());

    // resumed: epochs K+1..EPOCHS run, and the best so far carries over
    List<CountRegressionTrainer.Epoch> resumedEpochs = new ArrayList<>();
    CountRegressionTrainer.Run resumed = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings,
        resumedEpochs::add, () -> false, new ProgressSaving(atK, 1, null, s -> {}));
    try (TrainedCountModel m = resumed.model()) {
      assertThat(resumed.resumedFromEpoch()).isEqualTo(K);
      assertThat(resumed.epochs()).isEqualTo(EPOCHS);
      assertThat(resumedEpochs).extracting(CountRegressionTrainer.Epoch::epoch).containsExactly(4, 5, 6, 7, 8);
      assertThat(resumedEpochs.get(0).learningRate()).as("the schedule's rate at epoch K")
          .isEqualTo((double) atK.plateau().rate());
      assertThat(resumed.bestValidationL1()).isLessThanOrEqualTo(atK.bestValidationL1());
      if (resumed.bestEpoch() <= K) {
        assertThat(resumed.bestEpoch()).isEqualTo(atK.bestEpoch());
      }
      // it continued from trained parameters, not from a fresh initialisation
      assertThat(resumedEpochs.get(0).trainLoss()).isLessThan(wholeEpochs.get(0).trainLoss());
      // and validated what it trained: the restored parameters kept changing after the resume
      assertThat(resumedEpochs).extracting(CountRegressionTrainer.Epoch::validationL1).doesNotHaveDuplicates();
      assertThat(m.evaluate(d.validation()).l1()).as("the best epoch's parameters restored")
          .isCloseTo(resumed.bestValidationL1(), org.assertj.core.data.Offset.offset(1e-4));
    }

    // resumed at its last epoch: nothing left to train, the saved best parameters are the model
    CountRegressionTrainer.Run none = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(),
        settings.withEpochs(K), e -> {
          throw new AssertionError("no epoch should run, got " + e.epoch());
        }, () -> false, new ProgressSaving(atK, 1, null, s -> {}));
    try (TrainedCountModel m = none.model()) {
      assertThat(none.epochs()).isEqualTo(K);
      assertThat(none.bestEpoch()).isEqualTo(atK.bestEpoch());
      assertThat(m.evaluate(d.validation()).l1()).isCloseTo(atK.bestValidationL1(),
          org.assertj.core.data.Offset.offset(1e-4));
    }

    // a state of another seed is refused, naming both
    assertThatThrownBy(() -> trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings.withSeed(8),
        null, () -> false, new ProgressSaving(atK, 1, null, s -> {})))
        .hasMessageContaining("seed 7").hasMessageContaining("seed 8");
  }

  @Test
  void aTruncatedOrForeignStateIsRejectedWithItsReason() {
    assertThatThrownBy(() -> TrainingState.fromBytes(new byte[] {0, 3, 'a', 'b', 'c'}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a training state");
    TrainingState s = new TrainingState(2, 1, new byte[] {1, 2}, null, 1, 0.5, 0.7,
        new PlateauSchedule.State(0.01f, 0.5, 1), 42);
    byte[] b = s.toBytes();
    assertThatThrownBy(() -> TrainingState.fromBytes(java.util.Arrays.copyOf(b, b.length - 3)))
        .hasMessageContaining("truncated");
    TrainingState back = TrainingState.fromBytes(b);
    assertThat(back.epoch()).isEqualTo(2);
    assertThat(back.bestParameters()).isNull();
    assertThat(back.plateau()).isEqualTo(s.plateau());
    assertThat(back.orderState()).isEqualTo(42);
  }
}
