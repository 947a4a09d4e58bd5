package io.expresso.runtime;

import io.expresso.proto.v1.PairResult;
import io.expresso.proto.v1.PairTask;

/**
 * What names a pair task in its result, a success's and an error's alike: suite, pair index,
 * category, method (as the evaluator names it: the full model spec, the baseline's own name) and
 * seed. An error result of a pair task keeps these and nothing measured, so every reader counts
 * the failure in its category's errors and against its seed (a failed pair is not distinguished
 * under that seed), where the task's success would have counted.
 */
final class PairIdentity {

  private PairIdentity() {}

  /** The pair result of {@code task} under {@code method}, nothing measured yet. */
  static PairResult.Builder of(PairTask task, String method) {
    return PairResult.newBuilder()
        .setSuiteId(task.getSuiteId())
        .setPairIndex(task.getPairIndex())
        .setCategory(task.getCategory())
        .setMethod(method)
        .setSeed(task.getSeed());
  }
}
