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

/**
 * A count-regression run interrupted after epoch k and resumed from its saved state (real GIN, real data)
 * is the uninterrupted run, bit for bit: Adam's moments and the recoveries spent travel with the state.
 */
class TrainingResumeTest {

  private static final RegressorSpec SPEC = RegressorSpec.parse("gin:hidden=16,layers=2");
  private static final int EPOCHS = 8;
  private static final int K = 3;

  @Test
  void aRunStoppedAfterEpochKAndResumedEqualsTheUninterruptedRunBitForBit() {
    CountingSplit d = RobustnessData.erdosRenyi(200, RobustnessData.ER_IN, 5);
    // patience 0: every epoch without a better validation l1 halves the rate, so the schedule moves too
    CountRegressionTrainer.Settings settings = new CountRegressionTrainer.Settings(EPOCHS, 8, 0.01f, 7, "cpu",
        0.5f, 0, 0);
    CountRegressionTrainer trainer = new CountRegressionTrainer();

    // uninterrupted, saving after every epoch
    List<TrainingState> whole = new ArrayList<>();
    List<CountRegressionTrainer.Epoch> wholeEpochs = new ArrayList<>();
    byte[] wholeModel;
    try (TrainedCountModel m = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings,
        wholeEpochs::add, () -> false, new ProgressSaving(null, 1, null, whole::add)).model()) {
      assertThat(whole).as("saved after every epoch, the last once as the finished state").hasSize(EPOCHS);
      wholeModel = ParameterValues.snapshot(m.net().block());
    }
    assertThat(wholeEpochs.get(EPOCHS - 1).learningRate()).as("the plateau lowered the rate: " + wholeEpochs)
        .isLessThan(wholeEpochs.get(0).learningRate());

    // interrupted: the token is set once epoch K is reported, so epoch K+1 never finishes
    List<TrainingState> saved = new ArrayList<>();
    AtomicBoolean cancel = new AtomicBoolean();
    assertThatThrownBy(() -> trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings,
        e -> cancel.set(e.epoch() == K), cancel::get, new ProgressSaving(null, 1, null, saved::add)))
        .isInstanceOf(CancellationException.class).hasMessageContaining("epoch " + (K + 1));
    TrainingState atK = TrainingState.fromBytes(saved.get(saved.size() - 1).toBytes()); // as it travels
    assertThat(atK.epoch()).isEqualTo(K);
    assertThat(atK.adam()).as("Adam's moments are saved").isNotNull();
    // the same seed trains the same first K epochs: the interrupted run saved what the whole run saved
    assertThat(atK.toBytes()).isEqualTo(whole.get(K - 1).toBytes());

    // resumed: epochs K+1..EPOCHS, each the uninterrupted run's epoch bit for bit (Epoch's equals
    // compares its doubles' bits), and so is every state saved and the model kept
    List<CountRegressionTrainer.Epoch> resumedEpochs = new ArrayList<>();
    List<TrainingState> resumedStates = new ArrayList<>();
    CountRegressionTrainer.Run resumed = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings,
        resumedEpochs::add, () -> false, new ProgressSaving(atK, 1, null, resumedStates::add));
    try (TrainedCountModel m = resumed.model()) {
      assertThat(resumed.resumedFromEpoch()).isEqualTo(K);
      assertThat(resumed.epochs()).isEqualTo(EPOCHS);
      assertThat(resumedEpochs).extracting(CountRegressionTrainer.Epoch::epoch).containsExactly(4, 5, 6, 7, 8);
      assertThat(resumedEpochs).isEqualTo(wholeEpochs.subList(K, EPOCHS));
      for (int i = 0; i < resumedStates.size(); i++) {
        assertThat(resumedStates.get(i).toBytes()).as("the state of epoch %d", K + 1 + i)
            .isEqualTo(whole.get(K + i).toBytes());
      }
      assertThat(resumedStates).hasSize(EPOCHS - K);
      assertThat(ParameterValues.snapshot(m.net().block())).as("the model kept").isEqualTo(wholeModel);
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

    // moments of another network (same names, other widths) are refused in one line naming the parameter
    List<TrainingState> narrow = new ArrayList<>();
    trainer.train(RegressorSpec.parse("gin:hidden=8,layers=2"), Pattern.TRIANGLE, d.train(), d.validation(),
        settings.withEpochs(1), null, () -> false, new ProgressSaving(null, 1, null, narrow::add)).model().close();
    TrainingState foreign = atK.with(atK.parameters(), atK.bestParameters(), narrow.get(0).adam());
    assertThatThrownBy(() -> trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings, null,
        () -> false, new ProgressSaving(foreign, 1, null, s -> {})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("Adam's moments for parameter \\S+ float32\\(\\d+(, \\d+)*\\)"
            + " do not fit the network's float32\\(.*\\)");
    // and moments naming a parameter this network lacks (one name's "conv0" renamed "convX", same length)
    byte[] renamed = atK.adam().clone();
    byte[] from = "conv0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    int at = java.util.Collections.indexOfSubList(toList(renamed), toList(from));
    assertThat(at).isPositive();
    renamed[at + 4] = 'X';
    TrainingState misnamed = atK.with(atK.parameters(), atK.bestParameters(), renamed);
    assertThatThrownBy(() -> trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings, null,
        () -> false, new ProgressSaving(misnamed, 1, null, s -> {})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching("Adam's moments for parameter \\S*convX\\S* \\(.*\\): the network has no such parameter");
  }

  @Test
  void aDivergenceRecoveryBeforeTheSaveIsCountedAfterTheResume() {
    CountingSplit d = RobustnessData.erdosRenyi(60, RobustnessData.ER_IN, 5);
    CountRegressionTrainer.Settings s = new CountRegressionTrainer.Settings(6, 8, 0.01f, 3, "cpu", 0.5f, 100, 0);
    // NaN gradients once, at epoch 2's first step (as CountRegressionTrainerTest): one recovery, a fresh Adam
    AtomicBoolean poisoned = new AtomicBoolean();
    CountRegressionTrainer poisoning = new CountRegressionTrainer((epoch, block) -> {
      if (epoch == 2 && poisoned.compareAndSet(false, true)) {
        for (ai.djl.util.Pair<String, ai.djl.nn.Parameter> p : block.getParameters()) {
          if (p.getValue().requiresGradient()) {
            p.getValue().getArray().getGradient().muli(Float.NaN);
          }
        }
      }
    });
    List<TrainingState> whole = new ArrayList<>();
    List<CountRegressionTrainer.Epoch> wholeEpochs = new ArrayList<>();
    CountRegressionTrainer.Run run = poisoning.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), s,
        wholeEpochs::add, () -> false, new ProgressSaving(null, 1, null, whole::add));
    run.model().close();
    assertThat(run.recoveries()).isEqualTo(1);
    TrainingState atFour = TrainingState.fromBytes(whole.get(3).toBytes());
    assertThat(atFour.epoch()).isEqualTo(4);
    assertThat(atFour.recoveries()).isEqualTo(1);

    List<CountRegressionTrainer.Epoch> resumedEpochs = new ArrayList<>();
    List<TrainingState> resumedStates = new ArrayList<>();
    CountRegressionTrainer.Run resumed = new CountRegressionTrainer().train(SPEC, Pattern.TRIANGLE, d.train(),
        d.validation(), s, resumedEpochs::add, () -> false, new ProgressSaving(atFour, 1, null, resumedStates::add));
    resumed.model().close();
    assertThat(resumed.recoveries()).as("the recovery spent before the save").isEqualTo(1);
    assertThat(resumedEpochs).isEqualTo(wholeEpochs.subList(4, 6));
    assertThat(resumedStates.get(resumedStates.size() - 1).toBytes()).isEqualTo(whole.get(5).toBytes());
  }

  @Test
  void anAllZeroStepAfterTheResumeIsTakenAsTheUninterruptedRunTakesIt() {
    // DJL's trainer refuses a step whose gradients sum to zero until one has passed its check; where
    // all are zero OptimizerStep skips it. The uninterrupted trainer passed its check in epoch 1, so
    // it applies epoch 4's all-zero step (Adam moves on its moments); the resumed one must as well.
    CountingSplit d = RobustnessData.erdosRenyi(60, RobustnessData.ER_IN, 5);
    CountRegressionTrainer.Settings s = new CountRegressionTrainer.Settings(5, 8, 0.01f, 3, "cpu", 0.5f, 100, 0);
    List<TrainingState> whole = new ArrayList<>();
    List<CountRegressionTrainer.Epoch> wholeEpochs = new ArrayList<>();
    zeroingOnce(4).train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), s, wholeEpochs::add, () -> false,
        new ProgressSaving(null, 1, null, whole::add)).model().close();
    List<CountRegressionTrainer.Epoch> resumedEpochs = new ArrayList<>();
    zeroingOnce(4).train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), s, resumedEpochs::add, () -> false,
        new ProgressSaving(TrainingState.fromBytes(whole.get(2).toBytes()), 1, null, x -> {})).model().close();
    assertThat(resumedEpochs).isEqualTo(wholeEpochs.subList(3, 5));
  }

  /** A trainer whose first step of {@code epoch} has every gradient zero. */
  private static CountRegressionTrainer zeroingOnce(int epoch) {
    AtomicBoolean done = new AtomicBoolean();
    return new CountRegressionTrainer((e, block) -> {
      if (e == epoch && done.compareAndSet(false, true)) {
        for (ai.djl.util.Pair<String, ai.djl.nn.Parameter> p : block.getParameters()) {
          if (p.getValue().requiresGradient()) {
            p.getValue().getArray().getGradient().muli(0f);
          }
        }
      }
    });
  }

  @Test
  void aFormatTwoStateStillLoadsAndAdamStartsAfresh() {
    CountingSplit d = RobustnessData.erdosRenyi(200, RobustnessData.ER_IN, 5);
    CountRegressionTrainer.Settings settings = new CountRegressionTrainer.Settings(K + 2, 8, 0.01f, 7, "cpu",
        0.5f, 1, 0);
    CountRegressionTrainer trainer = new CountRegressionTrainer();
    List<TrainingState> saved = new ArrayList<>();
    trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings.withEpochs(K), null, () -> false,
        new ProgressSaving(null, 1, null, saved::add)).model().close();
    TrainingState atK = saved.get(K - 1);

    TrainingState old = TrainingState.fromBytes(formatTwo(atK));
    assertThat(old.adam()).as("format 2 saved no moments").isNull();
    assertThat(old.recoveries()).isZero();
    assertThat(old.parameters()).isEqualTo(atK.parameters());
    assertThat(old.bestParameters()).isEqualTo(atK.bestParameters());
    assertThat(old.plateau()).isEqualTo(atK.plateau());
    assertThat(old.orderState()).isEqualTo(atK.orderState());
    assertThat(old.bestValidationL1()).isEqualTo(atK.bestValidationL1());

    List<CountRegressionTrainer.Epoch> withMoments = new ArrayList<>();
    trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings, withMoments::add, () -> false,
        new ProgressSaving(atK, 1, null, s -> {})).model().close();
    List<CountRegressionTrainer.Epoch> afresh = new ArrayList<>();
    java.io.PrintStream err = System.err;
    java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(log, true, java.nio.charset.StandardCharsets.UTF_8));
    CountRegressionTrainer.Run run;
    try {
      run = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), settings, afresh::add, () -> false,
          new ProgressSaving(old, 1, null, s -> {}));
    } finally {
      System.setErr(err);
    }
    run.model().close();
    assertThat(run.resumedFromEpoch()).isEqualTo(K);
    assertThat(afresh).extracting(CountRegressionTrainer.Epoch::epoch).containsExactly(K + 1, K + 2);
    String said = log.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(said.split("no Adam moments", -1)).as("said once: " + said).hasSize(2);
    // a warm restart: Adam's first steps from zero moments take another path than the saved moments'
    assertThat(afresh.get(0).validationL1()).isNotEqualTo(withMoments.get(0).validationL1());
  }

  private static List<Byte> toList(byte[] b) {
    List<Byte> out = new ArrayList<>(b.length);
    for (byte x : b) {
      out.add(x);
    }
    return out;
  }

  /** {@code s} as format 2 wrote it: format 3 without the recoveries and Adam's moments. */
  private static byte[] formatTwo(TrainingState s) {
    try {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
      out.writeUTF("expresso-training-state-2");
      out.writeInt(s.epoch());
      out.writeLong(s.seed());
      out.writeInt(s.bestEpoch());
      out.writeDouble(s.bestValidationL1());
      out.writeDouble(s.lastLoss());
      out.writeFloat(s.plateau().rate());
      out.writeDouble(s.plateau().best());
      out.writeInt(s.plateau().badEpochs());
      out.writeLong(s.orderState());
      out.writeInt(s.parameters().length);
      out.write(s.parameters());
      out.writeInt(s.bestParameters().length);
      out.write(s.bestParameters());
      out.flush();
      return bytes.toByteArray();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aTruncatedOrForeignStateIsRejectedWithItsReason() {
    assertThatThrownBy(() -> TrainingState.fromBytes(new byte[] {0, 3, 'a', 'b', 'c'}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a training state");
    TrainingState s = new TrainingState(2, 1, new byte[] {1, 2}, null, 1, 0.5, 0.7,
        new PlateauSchedule.State(0.01f, 0.5, 1), 42, new byte[] {3}, 2);
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
