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

  @Test
  void beforeAnyTaskRanASlotTakesOne() {
    assertThat(AcquireSize.ADAPTIVE.initial()).isEqualTo(1);
    assertThat(AcquireSize.ADAPTIVE.next(1, LOCK, OptionalDouble.empty())).isEqualTo(1);
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
    assertThat(a.next(1, LOCK, OptionalDouble.of(0.3))).as("2 fit: not worth a new consumer").isEqualTo(1);
    assertThat(a.next(1, LOCK, OptionalDouble.of(0.001))).isEqualTo(512);
    assertThat(a.next(512, LOCK, OptionalDouble.of(0.003))).as("256: within the hysteresis").isEqualTo(512);
    assertThat(a.next(512, LOCK, OptionalDouble.of(0.02))).as("32: far off").isEqualTo(32);
    assertThat(a.next(2, LOCK, OptionalDouble.of(2))).as("long tasks: one by one at once").isEqualTo(1);
  }

  @Test
  void aFixedCountIsKeptWhateverTheTasksTake() {
    AcquireSize fixed = new AcquireSize(500);
    assertThat(fixed.initial()).isEqualTo(500);
    assertThat(fixed.next(500, LOCK, OptionalDouble.of(30))).isEqualTo(500);
    assertThat(new AcquireSize(1).next(1, LOCK, OptionalDouble.of(0.000_1))).isEqualTo(1);
  }

  @Test
  void countsOutOfBoundsAreRefused() {
    assertThatThrownBy(() -> new AcquireSize(-1)).hasMessageContaining("1 to 10000");
    assertThatThrownBy(() -> new AcquireSize(10_001)).hasMessageContaining("1 to 10000");
  }

  @Test
  void theMeanOverEveryKindFollowsTheRecentTasks() {
    CostModel costs = new CostModel();
    assertThat(costs.recentSeconds()).isEmpty();
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.2); // a cold first task
    for (int i = 0; i < 40; i++) {
      costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.001);
    }
    assertThat(costs.recentSeconds().getAsDouble()).isLessThan(0.002);
    for (int i = 0; i < 8; i++) {
      costs.onFinished(null, TaskKind.SYNTHETIC, null, 5);
    }
    assertThat(AcquireSize.target(LOCK, costs.recentSeconds())).as("after eight long tasks").isEqualTo(1);
  }

  @Test
  void durationsMeasuredBeforeTheQueueDrainedAreForgotten() {
    CostModel costs = new CostModel();
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.001);
    long drained = System.nanoTime();
    assertThat(costs.recentSeconds(drained)).as("nothing ended since").isEmpty();
    assertThat(AcquireSize.ADAPTIVE.next(512, LOCK, costs.recentSeconds(drained))).as("one task again").isEqualTo(1);
    costs.onFinished(null, TaskKind.SYNTHETIC, null, 0.001);
    assertThat(costs.recentSeconds(drained)).isPresent();
  }
}
