package io.expresso.robust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.attack.PerturbationSpace;
import io.expresso.count.CountingSplit;
import io.expresso.count.Pattern;
import io.expresso.model.RegressorSpec;
import io.expresso.train.CountRegressionTrainer;
import io.expresso.train.TrainedCountModel;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Train and attack jobs stopped by a cancellation token, on a real (tiny) I²-GNN. */
class JobCancellationTest {

  @Test
  void cancelledJobsStoreNothingAndLeaveTheRunnerUsable() {
    ModelStore store = ModelStore.inMemory();
    String spec = StudyJobs.resolveSpec("i2gnn", Pattern.TRIANGLE, Scale.TINY);
    TrainJob train = StudyJobs.train("c", spec, Pattern.TRIANGLE, "er-0.3", Scale.TINY, 1);
    try (JobRunner runner = new JobRunner(store, "cpu")) {
      AtomicInteger queries = new AtomicInteger();
      // 60 training graphs in batches of 8: the token is set in the middle of the first epoch
      assertThatThrownBy(() -> runner.train(train, () -> queries.incrementAndGet() > 5))
          .isInstanceOf(CancellationException.class)
          .hasMessageContaining("epoch 1 of " + Scale.TINY.epochs());
      assertThat(queries).as("asked once per batch, stopped at the first yes").hasValue(6);
      assertThat(store.get(train.modelId())).as("no checkpoint of a cancelled job").isEmpty();

      // A model to attack, trained for a few epochs only (the job's 20 would make a slow test).
      CountingSplit data = StudyData.get("er-0.3", Scale.TINY);
      try (TrainedCountModel model = new CountRegressionTrainer().train(RegressorSpec.parse(spec), Pattern.TRIANGLE,
          data.train(), data.validation(), new CountRegressionTrainer.Settings(3, 8, 0.01f, 1, "cpu"), null).model()) {
        assertThat(model.correctlyPredicted(data.test())).as("the fixture has graphs to attack").isNotEmpty();
        store.put(train.modelId(), model.toBytes());
      }

      AttackJob attack = StudyJobs.attack(new StoredModel(train.modelId(), spec, Pattern.TRIANGLE, Optional.of(train)),
          PerturbationSpace.ANY, Scale.TINY, "er-0.3", List.of(), 0, 0, null);
      AtomicInteger attackQueries = new AtomicInteger();
      // first the campaign asks before graph 1, then the search before its first step
      assertThatThrownBy(() -> runner.attack(attack, () -> attackQueries.incrementAndGet() > 1))
          .isInstanceOf(CancellationException.class)
          .hasMessageContaining("beam search cancelled in step 1");
      assertThat(attackQueries).hasValue(2);

      assertThat(runner.attack(attack).summary().attacked()).isPositive();
    }
  }
}
