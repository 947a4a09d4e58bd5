package io.expresso.runtime;

import com.google.protobuf.Message;
import io.expresso.proto.v1.Result;

/**
 * The one interface behind which evaluations plug into the runtime: a decoded task in, a result
 * out. Implementations are called on the dispatcher of the device they run on, one task at a
 * time per device, and must not keep per-task state between calls.
 *
 * <p>Return a {@link Result.Builder} with its payload set (pair, train, attack or synthetic); the
 * worker fills in experiment id, task id and provenance. Throw {@link TaskFailure} with a reason
 * for bad input (invalid graph6, unknown model, NaN); any other exception becomes reason
 * {@code exception}. Either way the task ends as an error result (its payload only what {@link
 * #identity} names) plus a dead letter.
 *
 * @param <T> the task message ({@code PairTask}, {@code TrainTask}, {@code AttackTask}, …)
 */
public interface Evaluator<T extends Message> {

  /** True if this evaluator handles the task (e.g. its method or model spec). */
  boolean accepts(T task);

  /**
   * Evaluates one task on {@code device}. Long evaluations check {@code cancelled} between
   * batches, epochs or search steps and throw {@link java.util.concurrent.CancellationException}
   * once it is true (the task timed out, or the worker is stopping).
   */
  Result.Builder evaluate(T task, DeviceSlot device, java.util.function.BooleanSupplier cancelled) throws Exception;

  /**
   * The payload an error result of {@code task} keeps: what names the task, as this evaluator's
   * successful results name it, and nothing measured (a pair task: its suite, pair index,
   * category, method and seed), so that readers count the failure where the task's success would
   * have counted. Null (the default): the error result has no payload. Must be cheap and must not
   * run the task.
   */
  default Result.Builder identity(T task) {
    return null;
  }
}
