package io.expresso.runtime.actors;

import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A running estimate of how long a task takes on a device (exponentially weighted means): per kind,
 * so the worker batches cheap tasks many to a message and sends expensive ones alone; and over every
 * kind, so a slot acquires many cheap tasks a poll and long ones one by one ({@link AcquireSize}).
 * Starts pessimistic: until a kind has been seen, each of its tasks is assumed to be expensive.
 */
final class CostModel implements TaskObserver {

  /** Assumed cost of a task of an unseen kind, in microseconds. */
  static final long UNKNOWN_MICROS = 1_000_000;

  /**
   * Weight of the newest task in the mean over every kind: about the last eight tasks count, so a
   * worker whose stream turns from tiny tasks to long ones acquires one by one again within a few
   * tasks, and a cold first task (class loading, JIT) is soon forgotten.
   */
  static final double RECENT_WEIGHT = 1.0 / 8;

  private final Map<TaskKind, Double> micros = new EnumMap<>(TaskKind.class);
  private double recentSeconds = Double.NaN;
  /** When the last task ended (nanoTime). */
  private long lastEnd;

  /** The estimated cost in microseconds, at least 1. */
  synchronized long estimate(TaskKind kind) {
    Double m = micros.get(kind);
    return m == null ? UNKNOWN_MICROS : Math.max(1, Math.round(m));
  }

  /** The mean device time of a recent task of any kind, in seconds; empty before the first ended. */
  synchronized OptionalDouble recentSeconds() {
    return Double.isNaN(recentSeconds) ? OptionalDouble.empty() : OptionalDouble.of(recentSeconds);
  }

  /**
   * As {@link #recentSeconds()}, but empty unless a task ended at or after {@code sinceNanos}
   * ({@link System#nanoTime()}): what ran before a queue drained says nothing of the next tasks.
   */
  synchronized OptionalDouble recentSeconds(long sinceNanos) {
    return Double.isNaN(recentSeconds) || lastEnd - sinceNanos < 0 ? OptionalDouble.empty() : OptionalDouble.of(recentSeconds);
  }

  @Override
  public synchronized void onFinished(DeviceSlot device, TaskKind kind, io.expresso.proto.v1.Result result, double seconds) {
    double us = seconds * 1e6;
    micros.merge(kind, us, (old, x) -> 0.9 * old + 0.1 * x);
    recent(seconds);
  }

  @Override
  public synchronized void onCancelled(DeviceSlot device, TaskKind kind, io.expresso.runtime.Cancellation.Reason reason,
      double seconds) {
    recent(seconds); // a task cancelled mid-run held its device that long
  }

  private void recent(double seconds) {
    lastEnd = System.nanoTime();
    recentSeconds = Double.isNaN(recentSeconds) ? seconds : (1 - RECENT_WEIGHT) * recentSeconds + RECENT_WEIGHT * seconds;
  }
}
