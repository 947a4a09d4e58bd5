package io.expresso.runtime;

import io.expresso.graph.Graph;
import io.expresso.graph.Graph6;
import io.expresso.graph.GraphFormatException;
import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;
import io.expresso.proto.v1.Result;
import io.expresso.wl.PairDistinguisher;
import io.expresso.wl.WlMethods;
import java.util.Locale;

/**
 * Pair tasks under an exact non-GNN method of the WL family ({@link WlMethods}): deterministic, so
 * the result is exact (reliable, no statistic, no training). Refinement checks the cancellation
 * token between rounds: k-WL on graphs of a few hundred vertices can run long.
 */
public final class BaselinePairEvaluator implements Evaluator<PairTask> {

  @Override
  public boolean accepts(PairTask task) {
    return WlMethods.names().contains(task.getMethod().toLowerCase(Locale.ROOT));
  }

  @Override
  public Result.Builder evaluate(PairTask task, DeviceSlot device, java.util.function.BooleanSupplier cancelled) {
    PairDistinguisher method = WlMethods.byName(task.getMethod().toLowerCase(Locale.ROOT));
    Graph g = decode(task.getGraphFirst(), "graph_first", task);
    Graph h = decode(task.getGraphSecond(), "graph_second", task);
    boolean d = method.distinguishes(g, h, cancelled);
    PairResult pair = PairIdentity.of(task, method.name())
        .setDistinguished(d)
        .setReliable(true)
        .setExact(true)
        .build();
    return Result.newBuilder().setPair(pair);
  }

  /** The pair under the baseline's own name, exact, nothing decided: what an error result of the task keeps. */
  @Override
  public Result.Builder identity(PairTask task) {
    return Result.newBuilder().setPair(PairIdentity.of(task,
        WlMethods.byName(task.getMethod().toLowerCase(Locale.ROOT)).name()).setExact(true));
  }

  /** Decodes graph6/sparse6, naming the field and pair on error. */
  static Graph decode(String text, String field, PairTask task) {
    try {
      return Graph6.decode(text);
    } catch (GraphFormatException e) {
      throw new TaskFailure(TaskFailure.INVALID_GRAPH6, field + " of pair " + task.getPairIndex()
          + " (task " + task.getHeader().getTaskId() + "): " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "baseline methods " + String.join("/", WlMethods.names());
  }
}
