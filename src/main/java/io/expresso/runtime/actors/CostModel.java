package io.expresso.runtime.actors;

import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;
import java.util.EnumMap;
import java.util.Map;

/**
 * A running estimate of how long a task of each kind takes on a device (exponentially weighted
 * mean), so the worker batches cheap tasks many to a message and sends expensive ones alone.
 * Starts pessimistic: until a kind has been seen, each of its tasks is assumed to be expensive.
 */
final class CostModel implements TaskObserver {

  /** Assumed cost of a task of an unseen kind, in microseconds. */
  static final long UNKNOWN_MICROS = 1_000_000;

  private final Map<TaskKind, Double> micros = new EnumMap<>(TaskKind.class);

  /** The estimated cost in microseconds, at least 1. */
  synchronized long estimate(TaskKind kind) {
    Double m = micros.get(kind);
    return m == null ? UNKNOWN_MICROS : Math.max(1, Math.round(m));
  }

  @Override
  public synchronized void onFinished(DeviceSlot device, TaskKind kind, io.expresso.proto.v1.Result result, double seconds) {
    double us = seconds * 1e6;
    micros.merge(kind, us, (old, x) -> 0.9 * old + 0.1 * x);
  }
}
