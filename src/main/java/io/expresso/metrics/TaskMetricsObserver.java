package io.expresso.metrics;

import io.expresso.proto.v1.Result;
import io.expresso.runtime.DeviceSlot;
import io.expresso.runtime.TaskFailure;
import io.expresso.runtime.TaskKind;
import io.expresso.runtime.TaskObserver;

/** Feeds a worker's {@link TaskMeters} from the runtime's task hook. */
public final class TaskMetricsObserver implements TaskObserver {

  private final TaskMeters meters;

  public TaskMetricsObserver(TaskMeters meters) {
    this.meters = meters;
    meters.registerFleet(java.util.Arrays.stream(TaskKind.values()).map(TaskKind::label).toList(), TaskFailure.REASONS);
  }

  @Override
  public void onStarted(DeviceSlot device, TaskKind kind) {
    meters.started(kind.label(), device.id());
  }

  @Override
  public void onFinished(DeviceSlot device, TaskKind kind, Result result, double seconds) {
    meters.finished(kind.label(), device.id(), modelOf(result), seconds,
        result.hasError() ? result.getError().getReason() : null);
  }

  @Override
  public void onCancelled(DeviceSlot device, TaskKind kind, io.expresso.runtime.Cancellation.Reason reason, double seconds) {
    meters.cancelled(kind.label(), device.id(), reason.name().toLowerCase(java.util.Locale.ROOT), seconds);
  }

  @Override
  public void onPoison(DeviceSlot device, TaskKind kind) {
    meters.poison(kind.label());
  }

  @Override
  public void onAttempts(TaskKind kind, int tasks) {
    meters.attempts(kind.label(), tasks);
  }

  @Override
  public void onHandedBack(int tasks) {
    if (tasks > 0) {
      meters.handedBack(tasks);
    }
  }

  @Override
  public void onRestart() {
    meters.restart();
  }

  /**
   * The model spec or method a result was computed with: a low-cardinality label. An error result
   * is "unknown" even where it names its pair's method: that may be whatever a task wrote (an
   * unknown or hostile model), which must not take the label's values from real models.
   */
  static String modelOf(Result result) {
    if (result.hasError()) {
      return "unknown";
    }
    String model = switch (result.getPayloadCase()) {
      case PAIR -> result.getPair().getMethod();
      case TRAIN -> result.getTrain().getModel();
      case ATTACK -> result.getAttack().getModel();
      case SYNTHETIC -> "none";
      case DATASET -> result.getDataset().getModel();
      case PAYLOAD_NOT_SET -> "unknown";
    };
    return model.isEmpty() ? "unknown" : model;
  }
}
