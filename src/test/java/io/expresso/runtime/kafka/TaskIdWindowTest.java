package io.expresso.runtime.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskIdWindowTest {

  @Test
  void remembersEachIdWithItsLatestFlag() {
    TaskIdWindow w = new TaskIdWindow();
    assertThat(w.get("e/t1")).isEqualTo(TaskIdWindow.ABSENT);
    assertThat(w.put("e/t1", false)).isTrue();
    assertThat(w.put("e/t2", true)).isTrue();
    assertThat(w.get("e/t1")).isZero();
    assertThat(w.put("e/t1", true)).as("seen before").isFalse();
    assertThat(w.get("e/t1")).isOne();
    assertThat(w.get("e/t2")).isOne();
    assertThat(w.get("e/t3")).isEqualTo(TaskIdWindow.ABSENT);
  }

  @Test
  void growsExactlyUpToOneGeneration() {
    TaskIdWindow w = new TaskIdWindow(1 << 16);
    int n = w.guaranteed();
    for (int i = 0; i < n; i++) {
      assertThat(w.put("task-" + i, i % 2 == 0)).isTrue();
    }
    assertThat(w.rolls()).isZero();
    for (int i = 0; i < n; i++) {
      assertThat(w.get("task-" + i)).as("task-" + i).isEqualTo(i % 2 == 0 ? 1 : 0);
      assertThat(w.put("task-" + i, true)).isFalse();
    }
    assertThat(w.retainedBytes()).isEqualTo(8L << 16);
  }

  @Test
  void memoryDoesNotGrowWithTheIdsWrittenAndTheRecentOnesAreKept() {
    int slots = 1 << 10;
    TaskIdWindow w = new TaskIdWindow(slots);
    int written = 50 * slots;
    for (int i = 0; i < written; i++) {
      w.put("task-" + i, true);
      assertThat(w.retainedBytes()).isLessThanOrEqualTo(2L * 8 * slots);
    }
    assertThat(w.rolls()).isGreaterThan(40);
    for (int i = written - w.guaranteed(); i < written; i++) {
      assertThat(w.get("task-" + i)).as("recent task-" + i).isOne();
    }
    assertThat(w.get("task-0")).as("long gone").isEqualTo(TaskIdWindow.ABSENT);
  }

  @Test
  void anIdTouchedAgainStaysThroughARoll() {
    TaskIdWindow w = new TaskIdWindow(4); // 3 ids a generation
    w.put("old", false);
    w.put("a", true);
    w.put("b", true);
    w.put("c", true); // rolls: old, a, b become the previous generation
    w.put("old", true); // moves into the current one
    w.put("d", true);
    w.put("e", true); // rolls again: c, old, d become the previous generation; a, b are dropped
    assertThat(w.get("old")).isOne();
    assertThat(w.get("a")).isEqualTo(TaskIdWindow.ABSENT);
  }

  @Test
  void slotsMustBeAPowerOfTwo() {
    assertThatThrownBy(() -> new TaskIdWindow(1000)).hasMessageContaining("power of two");
  }
}
