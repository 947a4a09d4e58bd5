package io.expresso.runtime;

import io.expresso.proto.v1.Result;

/**
 * Hook on a worker's task processing (metrics). Called on the device's own thread; keep it quick
 * and thread-safe.
 */
public interface TaskObserver {

  TaskObserver NONE = new TaskObserver() {};

  /** A task was handed to {@code device}. */
  default void onStarted(Device device, TaskKind kind) {}

  /** A task finished (successfully or as an error result) after {@code seconds} on the device. */
  default void onFinished(Device device, TaskKind kind, Result result, double seconds) {}
}
