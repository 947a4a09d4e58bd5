package io.expresso.runtime.actors;

import java.time.Duration;
import java.util.OptionalDouble;

/**
 * How many tasks a device slot acquires per poll. Fixed when the operator says so ({@code worker
 * --acquire N}); otherwise adaptive: as many as keep the slot busy for a {@value #BATCHES_PER_LOCK}th
 * of the acquisition lock (1 s of Kafka's default 30 s) by the recent mean task duration. A round
 * trip to the broker (20-50 ms) then costs a few percent of a batch of tiny tasks, a batch ends long
 * before its lock needs renewing, and a task of a second or more travels alone, so in a fleet every
 * idle slot can take the next long task. Until {@value #MIN_EVIDENCE} tasks have been measured a
 * slot takes one: an estimate from one tiny warm-up task must not pull in a whole queue of long
 * tasks behind it, where they would wait in one slot while others idle.
 *
 * <p>Kafka's share consumer fixes its count ({@code max.poll.records}) when it is created, so a new
 * count costs the slot a new consumer (it leaves and joins the group, about a heartbeat's time). The
 * counts are therefore powers of two, and a slot changes to a new one only when it is at least
 * {@value #HYSTERESIS} times larger or smaller, or 1 (long tasks must not wait in a batch).
 *
 * @param fixed the operator's count, or 0 for adaptive
 */
record AcquireSize(int fixed) {

  /** Adaptive (the default). */
  static final AcquireSize ADAPTIVE = new AcquireSize(0);

  /** The most tasks one poll acquires, fixed or adaptive. */
  static final int MAX = 10_000;

  /** The most an adaptive slot acquires: enough for no-op tasks to travel a thousand to a round trip. */
  static final int ADAPTIVE_MAX = 1024;

  /** A batch is to keep a slot busy for this fraction of the lock (1 s of 30 s). */
  static final int BATCHES_PER_LOCK = 30;

  /** An adaptive slot changes its count (and consumer) only for a count this many times larger or smaller. */
  static final int HYSTERESIS = 4;

  /** An adaptive slot takes one task a poll until its duration estimate rests on this many tasks. */
  static final int MIN_EVIDENCE = 2;

  AcquireSize {
    if (fixed < 0 || fixed > MAX) {
      throw new IllegalArgumentException("tasks acquired per poll must be 1 to " + MAX + " (or 0: adaptive), got " + fixed);
    }
  }

  boolean adaptive() {
    return fixed == 0;
  }

  /** The count to acquire with before any task ran. */
  int initial() {
    return adaptive() ? 1 : fixed;
  }

  /**
   * The count for the next poll of a slot that acquires {@code current} now.
   *
   * @param lock the acquisition lock of the group
   * @param recent the recent mean device time of a task and how many tasks it rests on
   */
  int next(int current, Duration lock, CostModel.Recent recent) {
    if (!adaptive()) {
      return fixed;
    }
    int target = (int) Math.min(target(lock, recent.seconds()), evidenceCap(recent.tasks()));
    boolean farOff = target >= (long) current * HYSTERESIS || (long) target * HYSTERESIS <= current;
    return target == 1 || farOff ? target : current;
  }

  /**
   * The most tasks a slot may take on a mean of {@code tasks} tasks: one until two tasks have ended
   * (one task is no mean: a warm-up, a cold start), then any number.
   */
  static long evidenceCap(long tasks) {
    return tasks < MIN_EVIDENCE ? 1 : ADAPTIVE_MAX;
  }

  /** The power of two (1 to {@link #ADAPTIVE_MAX}) of tasks that fill about a batch's share of the lock. */
  static int target(Duration lock, OptionalDouble recentSeconds) {
    if (recentSeconds.isEmpty()) {
      return 1;
    }
    double budget = lock.toNanos() / 1e9 / BATCHES_PER_LOCK;
    double fits = budget / Math.max(recentSeconds.getAsDouble(), 1e-6);
    if (!(fits >= 2)) {
      return 1;
    }
    return Integer.highestOneBit((int) Math.min(fits, ADAPTIVE_MAX));
  }
}
