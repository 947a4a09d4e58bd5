package io.expresso.train;

import io.expresso.engine.Devices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import ai.djl.nn.Parameter;
import ai.djl.util.Pair;
import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.count.RobustnessData;
import io.expresso.model.RegressorSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CountRegressionTrainerTest {

  private static final RegressorSpec SPEC = RegressorSpec.parse("i2gnn:hidden=16,layers=2,hops=2");

  /** ℓ1 of the best constant predictor on the training set (the median), on the test set. */
  private static double constantL1(CountingSplit s, Pattern p) {
    List<Long> train = new ArrayList<>();
    for (int g = 0; g < s.train().graphs().size(); g++) {
      train.add(s.train().count(g, p));
    }
    train.sort(null);
    long median = train.get(train.size() / 2);
    double sum = 0;
    for (int g = 0; g < s.test().graphs().size(); g++) {
      sum += Math.abs(s.test().count(g, p) - median);
    }
    return sum / s.test().graphs().size();
  }

  @Test
  void trainsOnAFreshThreadCheckpointsAndRetrainsOnlyTheHead() throws Exception {
    CountingSplit d1 = RobustnessData.erdosRenyi(200, RobustnessData.ER_IN, 11);
    CountingSplit d2 = RobustnessData.erdosRenyi(200, RobustnessData.ER_OOD, 11);
    CountRegressionTrainer.Settings settings = new CountRegressionTrainer.Settings(20, 8, 0.01f, 1, "cpu");
    List<CountRegressionTrainer.Epoch> epochs = new ArrayList<>();
    AtomicReference<Object> result = new AtomicReference<>();
    // PyTorch grad mode is thread-local: training must work on a thread that never saw the engine.
    Thread t = new Thread(() -> {
      try {
        result.set(new CountRegressionTrainer().train(SPEC, Pattern.TRIANGLE, d1.train(), d1.validation(),
            settings, epochs::add));
      } catch (Throwable e) {
        result.set(e);
      }
    }, "fresh-training-thread");
    t.start();
    t.join();
    if (result.get() instanceof Throwable e) {
      throw new AssertionError("training failed", e);
    }
    CountRegressionTrainer.Run run = (CountRegressionTrainer.Run) result.get();
    try (TrainedCountModel model = run.model()) {
      assertThat(epochs).hasSize(20);
      assertThat(epochs.get(19).trainLoss()).isLessThan(epochs.get(0).trainLoss());
      CountErrors test = model.evaluate(d1.test());
      double baseline = constantL1(d1, Pattern.TRIANGLE);
      // 20 epochs at rate 0.01 bounce (validation ℓ1 0.9-2.8): float rounding alone moves where the best epoch
      // lands, 0.43 of the constant predictor's ℓ1 with padded I²-GNN tensors, 0.66 with packed ones
      assertThat(test.l1()).as("learned ℓ1 vs constant predictor %s", baseline).isLessThan(0.7 * baseline);
      assertThat(model.correctlyPredicted(d1.test())).isNotEmpty();

      // The checkpoint reproduces the predictions exactly.
      byte[] bytes = model.toBytes();
      try (TrainedCountModel copy = TrainedCountModel.fromBytes(bytes, "cpu")) {
        assertThat(copy.predict(d1.test().graphs())).containsExactly(model.predict(d1.test().graphs()));
        assertThat(copy.pattern()).isEqualTo(Pattern.TRIANGLE);
        Map<String, float[]> before = snapshot(copy);
        double oodBefore = copy.evaluate(d2.test()).l1();
        new CountRegressionTrainer().retrainHead(copy, d2.train(), d2.validation(), settings.withEpochs(20), null);
        Map<String, float[]> after = snapshot(copy);
        int changed = 0;
        for (String name : before.keySet()) {
          boolean same = java.util.Arrays.equals(before.get(name), after.get(name));
          if (name.contains("head")) {
            changed += same ? 0 : 1;
          } else {
            assertThat(same).as("frozen parameter %s unchanged", name).isTrue();
          }
        }
        assertThat(changed).as("head parameters updated").isPositive();
        assertThat(copy.evaluate(d2.test()).l1()).isLessThan(oodBefore);
      }
      // The original model is untouched by retraining its copy.
      try (TrainedCountModel reloaded = TrainedCountModel.fromBytes(bytes, "cpu")) {
        assertThat(reloaded.predict(d1.test().graphs())).containsExactly(model.predict(d1.test().graphs()));
      }
    }
  }

  @Test
  void plateauDecayAndEarlyStoppingOnValidationL1RestoreTheBestEpoch() {
    CountingSplit d = RobustnessData.erdosRenyi(120, RobustnessData.ER_IN, 5);
    // a large rate plateaus soon; halve after 1 bad epoch, stop after 3
    CountRegressionTrainer.Settings s = new CountRegressionTrainer.Settings(40, 8, 0.05f, 2, "cpu", 0.5f, 1, 3);
    List<CountRegressionTrainer.Epoch> epochs = new ArrayList<>();
    CountRegressionTrainer.Run run = new CountRegressionTrainer().train(SPEC, Pattern.TRIANGLE, d.train(),
        d.validation(), s, epochs::add);
    try (TrainedCountModel model = run.model()) {
      assertThat(epochs).hasSize(run.epochs());
      if (run.epochs() < 40) {
        assertThat(run.epochs() - run.bestEpoch()).as("stopped 3 epochs after the best").isEqualTo(3);
      }
      double best = epochs.stream().mapToDouble(CountRegressionTrainer.Epoch::validationL1).min().orElseThrow();
      assertThat(run.bestValidationL1()).isEqualTo(best);
      assertThat(epochs.get(run.bestEpoch() - 1).validationL1()).isEqualTo(best);
      // the best epoch's parameters are the ones kept
      assertThat(model.evaluate(d.validation()).l1()).isCloseTo(best, org.assertj.core.api.Assertions.within(1e-4));
      for (int e = 1; e < epochs.size(); e++) {
        double before = epochs.get(e - 1).learningRate();
        double now = epochs.get(e).learningRate();
        assertThat(now == before || Math.abs(now - before / 2) < 1e-9).as("epoch %d: %s then %s", e + 1, before, now)
            .isTrue();
      }
      assertThat(epochs.get(0).learningRate()).isCloseTo(0.05, org.assertj.core.api.Assertions.within(1e-7));
    }
  }

  @Test
  void aStepThatPoisonsTheWeightsIsUndoneOnceWithAFreshOptimiser() {
    CountingSplit d = RobustnessData.erdosRenyi(60, RobustnessData.ER_IN, 5);
    CountRegressionTrainer.Settings s = new CountRegressionTrainer.Settings(5, 8, 0.01f, 3, "cpu", 0.5f, 100, 0);
    // a test double for an overflowing backward pass: NaN gradients once, at epoch 3's first step;
    // Adam's update then makes every weight NaN and the next batch's loss is non-finite
    java.util.concurrent.atomic.AtomicBoolean poisoned = new java.util.concurrent.atomic.AtomicBoolean();
    CountRegressionTrainer trainer = new CountRegressionTrainer((epoch, block) -> {
      if (epoch == 3 && poisoned.compareAndSet(false, true)) {
        for (Pair<String, Parameter> p : block.getParameters()) {
          if (p.getValue().requiresGradient()) {
            p.getValue().getArray().getGradient().muli(Float.NaN);
          }
        }
      }
    });
    List<CountRegressionTrainer.Epoch> epochs = new ArrayList<>();
    CountRegressionTrainer.Run run = trainer.train(SPEC, Pattern.TRIANGLE, d.train(), d.validation(), s, epochs::add);
    try (TrainedCountModel model = run.model()) {
      assertThat(poisoned).isTrue();
      // with Adam's NaN moments kept, every recovery was poisoned again at once and training stopped after 5
      assertThat(run.recoveries()).as("one recovery, then training went on").isEqualTo(1);
      assertThat(run.divergedInEpoch()).isZero();
      assertThat(run.epochs()).isEqualTo(5);
      assertThat(epochs).extracting(CountRegressionTrainer.Epoch::epoch).containsExactly(1, 2, 3, 4, 5);
      assertThat(epochs).allSatisfy(e -> assertThat(e.validationL1()).isFinite());
      assertThat(epochs.get(2).learningRate()).as("epoch 3 retrained at half the rate").isEqualTo(0.005, within(1e-9));
      assertThat(model.evaluate(d.validation()).l1()).isFinite();
    }
  }

  @Test
  void corruptCheckpointsAndBadSettingsAreClearErrors() {
    assertThatThrownBy(() -> TrainedCountModel.fromBytes(new byte[] {0, 3, 'a', 'b', 'c'}, "cpu"))
        .hasMessageContaining("not a count-model checkpoint");
    assertThatThrownBy(() -> new CountRegressionTrainer.Settings(0, 16, 0.01f, 1, "cpu"))
        .hasMessageContaining("must be positive");
    assertThatThrownBy(() -> io.expresso.engine.Devices.parse("tpu")).hasMessageContaining("unknown device 'tpu'");
  }

  private static Map<String, float[]> snapshot(TrainedCountModel m) {
    Map<String, float[]> out = new HashMap<>();
    for (Pair<String, Parameter> p : m.net().block().getParameters()) {
      out.put(p.getKey(), p.getValue().getArray().toFloatArray());
    }
    return out;
  }
}
