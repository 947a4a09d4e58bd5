package io.expresso.runtime.kafka;

import com.google.protobuf.InvalidProtocolBufferException;
import io.expresso.proto.v1.Result;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an {@link Aggregator} keeps of the result that counts for each task: at least whether it
 * succeeded, all {@link ResultMerge}'s rule needs to judge a later record of the task. Two ways:
 * {@link All} keeps every counted result (readers that report an experiment), {@link OutcomesOnly}
 * one flag per task id in bounded memory (long-lived readers whose listeners keep summaries).
 * Not thread-safe: the aggregator guards it.
 */
interface KeptResults {

  /** {@link #outcome}: nothing is kept for the task. */
  int ABSENT = TaskIdWindow.ABSENT;

  /** {@link #ABSENT}, or whether the task's kept result succeeded: 1, or 0 for an error. */
  int outcome(String taskId);

  /** Keeps {@code value}, an encoded {@link Result}, as the task's counted result. */
  void keep(String taskId, byte[] value, boolean succeeded);

  /**
   * The kept results by task id, in the order their task ids first arrived (a view).
   *
   * @throws IllegalStateException for a store that keeps outcomes only
   */
  Map<String, byte[]> results();

  /** Every counted result, as the bytes it arrived in. */
  final class All implements KeptResults {
    // the bytes, not decoded messages: one array each instead of a tree of message and string
    // objects, so at 100k results a second the garbage collector has far less to trace and copy
    private final Map<String, byte[]> results = new LinkedHashMap<>();

    @Override
    public int outcome(String taskId) {
      byte[] kept = results.get(taskId);
      // a repeat is rare: decoded only here, so the first arrival of each task stays cheap
      return kept == null ? ABSENT : ResultMerge.succeeded(decode(kept)) ? 1 : 0;
    }

    @Override
    public void keep(String taskId, byte[] value, boolean succeeded) {
      results.put(taskId, value);
    }

    @Override
    public Map<String, byte[]> results() {
      return Collections.unmodifiableMap(results);
    }
  }

  /**
   * Only which task ids were read and whether each one's kept result succeeded, in a {@link
   * TaskIdWindow} (at most 32 MiB by default): a repeat of a task that has left the window (more
   * than 1.5 million distinct tasks later) is taken for a first result.
   */
  final class OutcomesOnly implements KeptResults {
    private final TaskIdWindow window;

    OutcomesOnly(TaskIdWindow window) {
      this.window = window;
    }

    @Override
    public int outcome(String taskId) {
      return window.get(taskId);
    }

    @Override
    public void keep(String taskId, byte[] value, boolean succeeded) {
      window.put(taskId, succeeded);
    }

    @Override
    public Map<String, byte[]> results() {
      throw new IllegalStateException("this aggregator keeps summaries only, not the results");
    }
  }

  static Result decode(byte[] kept) {
    try {
      return Result.parseFrom(kept);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a result decoded on arrival no longer decodes", e);
    }
  }
}
