package io.expresso.runtime;

import io.expresso.proto.v1.Result;

/**
 * Hook on a worker's task processing (metrics). Task hooks are called on the device's own thread,
 * the others on the task loop's; keep them quick and thread-safe.
 */
public interface TaskObserver {

  TaskObserver NONE = new TaskObserver() {};

  /** A task was handed to {@code device}. */
  default void onStarted(DeviceSlot device, TaskKind kind) {}

  /** A task finished (successfully or as an error result) after {@code seconds} on the device. */
  default void onFinished(DeviceSlot device, TaskKind kind, Result result, double seconds) {}

  /** A running task was handed back ({@code reason}) after {@code seconds}: no result here, it is released. */
  default void onCancelled(DeviceSlot device, TaskKind kind, Cancellation.Reason reason, double seconds) {}

  /** A task was not run: it had already taken down or been lost with workers too often. */
  default void onPoison(DeviceSlot device, TaskKind kind) {}

  /** {@code tasks} tasks are about to start on a device (each start of a delivery counts once). */
  default void onAttempts(TaskKind kind, int tasks) {}

  /** Tasks given up before they started (a stop): released to the share group, another worker runs them. */
  default void onHandedBack(int tasks) {}

  /** The task loop failed and was started again with new Kafka clients. */
  default void onRestart() {}
}
