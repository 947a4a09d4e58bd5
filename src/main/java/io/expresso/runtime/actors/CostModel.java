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
   * Weight of the newest task in the mean over every kind, once eight tasks have been measured (the
   * plain mean before): about the last eight tasks count, so a worker whose stream turns from tiny
   * tasks to long ones acquires one by one again within a few tasks, and a cold first task (class
   * loading, JIT) is soon forgotten.
   */
  static final double RECENT_WEIGHT = 1.0 / 8;

  private final Map<TaskKind, Double> micros = new EnumMap<>(TaskKind.class);
  private double recentSeconds = Double.NaN;
  /** Tasks the recent mean rests on: ended (finished or cancelled) since the last {@link #forget()}. */
  private long recentTasks;

  /**
   * What the recent tasks say about the next: their mean device time in seconds, and how many tasks
   * that mean rests on.
   *
   * @param seconds the recent mean, empty before a task ended (since the queue last drained)
   * @param tasks how many tasks it rests on
   */
  record Recent(OptionalDouble seconds, long tasks) {

    /** Nothing measured. */
    static final Recent NONE = new Recent(OptionalDouble.empty(), 0);
  }

  /** The estimated cost in microseconds, at least 1. */
  synchronized long estimate(TaskKind kind) {
    Double m = micros.get(kind);
    return m == null ? UNKNOWN_MICROS : Math.max(1, Math.round(m));
  }

  /** The mean device time of the recent tasks of any kind and how many it rests on. */
  synchronized Recent recent() {
    return recentTasks == 0 ? Recent.NONE : new Recent(OptionalDouble.of(recentSeconds), recentTasks);
  }

  /** The queue drained: what ran before says nothing of the next burst, so the recent mean starts anew. */
  synchronized void forget() {
    recentTasks = 0;
    recentSeconds = Double.NaN;
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
    recentTasks++;
    double weight = Math.max(RECENT_WEIGHT, 1.0 / recentTasks); // the plain mean of the first eight
    recentSeconds = recentTasks == 1 ? seconds : (1 - weight) * recentSeconds + weight * seconds;
  }
}
