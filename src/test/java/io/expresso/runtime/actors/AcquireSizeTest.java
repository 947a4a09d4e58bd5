package io.expresso.runtime.actors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.expresso.runtime.TaskKind;
import java.time.Duration;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class AcquireSizeTest {

  private static final Duration LOCK = Duration.ofSeconds(30); // Kafka's default: a batch is to fill 1 s

  private static int target(double seconds) {
    return AcquireSize.target(LOCK, OptionalDouble.of(seconds));
  }

  /** A mean resting on plenty of tasks: only the duration decides. */
  private static CostModel.Recent measured(double seconds) {
    return new CostModel.Recent(OptionalDouble.of(seconds), 100_000);
  }

  @Test
  void beforeAnyTaskRanASlotTakesOne() {
    assertThat(AcquireSize.ADAPTIVE.initial()).isEqualTo(1);
    assertThat(AcquireSize.ADAPTIVE.next(1, LOCK, CostModel.Recent.NONE)).isEqualTo(1);
  }

  @Test
  void tinyTasksTravelManyToARoundTripUpToTheBound() {
    assertThat(target(0.005)).isEqualTo(128); // 200 fit in 1 s: the power of two below
    assertThat(target(0.000_01)).isEqualTo(AcquireSize.ADAPTIVE_MAX);
    assertThat(target(0)).isEqualTo(AcquireSize.ADAPTIVE_MAX);
  }

  @Test
  void tasksOfHalfASecondOrMoreTravelOneByOne() {
    assertThat(target(0.6)).isEqualTo(1);
    assertThat(target(10)).isEqualTo(1);
    assertThat(target(3600)).isEqualTo(1);
  }

  @Test
  void aShorterLockMeansSmallerBatches() {
    assertThat(AcquireSize.target(Duration.ofSeconds(3), OptionalDouble.of(0.005))).isEqualTo(16); // 0.1 s: 20 fit
  }

  @Test
  void theCountChangesOnlyWhenFarOffOrWhenTasksTurnLong() {
    AcquireSize a = AcquireSize.ADAPTIVE;
    assertThat(a.next(1, LOCK, measured(0.3))).as("2 fit: not worth a new consumer").isEqualTo(1);
    assertThat(a.next(1, LOCK, measured(0.001))).isEqualTo(512);
    assertThat(a.next(512, LOCK, measured(0.003))).as("256: within the hysteresis").isEqualTo(512);
    assertThat(a.next(512, LOCK, measured(0.02))).as("32: far off").isEqualTo(32);
    assertThat(a.next(2, LOCK, measured(2))).as("long tasks: one by one at once").isEqualTo(1);
  }

  @Test
  void aFixedCountIsKeptWhateverTheTasksTake() {
    AcquireSize fixed = new AcquireSize(500);
    assertThat(fixed.initial()).isEqualTo(500);
    assertThat(fixed.next(500, LOCK, measured(30))).isEqualTo(500);
    assertThat(new AcquireSize(1).next(1, LOCK, measured(0.000_1))).isEqualTo(1);
  }

  @Test
  void countsOutOfBoundsAreRefused() {
    assertThatThrownBy(() -> new AcquireSize(-1)).hasMessageContaining("1 to 10000");
    assertThatThrownBy(() -> new AcquireSize(10_001)).hasMessageContaining("1 to 10000");
  }

  @Test
  void theMeanOverEveryKindFollowsTheRecentTasks() {
    CostModel costs = new CostModel();
    assertThat(costs.recent()).isEqualTo(CostModel.Recent.NONE);
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.2); // a cold first task
    for (int i = 0; i < 40; i++) {
      costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.001);
    }
    assertThat(costs.recent().seconds().getAsDouble()).isLessThan(0.002);
    for (int i = 0; i < 8; i++) {
      costs.onFinished(null, TaskKind.SYNTHETIC, null, 5);
    }
    assertThat(AcquireSize.target(LOCK, costs.recent().seconds())).as("after eight long tasks").isEqualTo(1);
  }

  @Test
  void durationsMeasuredBeforeTheQueueDrainedAreForgotten() {
    CostModel costs = new CostModel();
    for (int i = 0; i < 100; i++) {
      costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.001);
    }
    costs.forget(); // the queue drained
    assertThat(costs.recent()).as("nothing ended since").isEqualTo(CostModel.Recent.NONE);
    assertThat(AcquireSize.ADAPTIVE.next(512, LOCK, costs.recent())).as("one task again").isEqualTo(1);
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.5);
    assertThat(costs.recent()).as("the new burst alone").isEqualTo(new CostModel.Recent(OptionalDouble.of(0.5), 1));
  }

  @Test
  void theFirstEightTasksCountAlike() {
    // a 0 ms warm-up task, then a long one: the long one must weigh as much, or its mean (1/8 of it) says
    // that five of them fit in the batch's second
    CostModel costs = new CostModel();
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.0);
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 1.5);
    assertThat(costs.recent().seconds().getAsDouble()).isEqualTo(0.75);
    assertThat(AcquireSize.ADAPTIVE.next(1, LOCK, costs.recent())).isEqualTo(1);
  }

  @Test
  void oneTaskIsNoMeanToSizeABatchOn() {
    // a 0 ms warm-up task, then a queue of long tasks: the slot must not take the queue in one poll
    CostModel costs = new CostModel();
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.0);
    AcquireSize a = AcquireSize.ADAPTIVE;
    assertThat(a.next(1, LOCK, costs.recent())).as("one task measured").isEqualTo(1);
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 10.0); // the next one was long: its mean says so
    assertThat(a.next(1, LOCK, costs.recent())).as("a warm-up task, then a long one").isEqualTo(1);

    CostModel tiny = new CostModel();
    tiny.onFinished(null, TaskKind.SYNTHETIC, null, 0.0);
    tiny.onFinished(null, TaskKind.SYNTHETIC, null, 0.0);
    assertThat(a.next(1, LOCK, tiny.recent())).as("two tiny tasks: a stream of them").isEqualTo(AcquireSize.ADAPTIVE_MAX);
    assertThat(new AcquireSize(64).next(64, LOCK, CostModel.Recent.NONE)).as("a fixed count, whatever was measured")
        .isEqualTo(64);
  }


}
