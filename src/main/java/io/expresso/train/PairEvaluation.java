package io.expresso.train;

import io.expresso.stats.PairJudgement;

/**
 * The result of evaluating one model on one pair.
 *
 * @param index the pair's index in its suite
 * @param category the pair's category
 * @param seed the seed that fixed initialisation and drawn relabelings
 * @param judgement T² values, threshold and the official decision
 * @param training what training did (epochs, final loss, skipped steps)
 * @param seconds wall-clock time for the whole pair (training and judging; not the wait for memory that
 *     pairs beside it held, see {@link io.expresso.engine.MemoryPool})
 * @param parameters trainable parameters of the model
 * @param memory the memory budget, the passes it allowed and the peak resident memory
 */
public record PairEvaluation(
    int index, String category, long seed, PairJudgement judgement, TrainingOutcome training, double seconds,
    long parameters, MemoryUse memory) {

  public boolean distinguished() {
    return judgement.distinguished();
  }

  public boolean reliable() {
    return judgement.reliable();
  }
}
