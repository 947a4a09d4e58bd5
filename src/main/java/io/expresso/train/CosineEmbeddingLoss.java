package io.expresso.train;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.loss.Loss;
import io.expresso.engine.Scalars;

/**
 * PyTorch's {@code CosineEmbeddingLoss} with margin 0 and target −1 on interleaved embeddings:
 * rows 0, 2, 4, … (relabelings of G) are paired with rows 1, 3, 5, … (of H) and the loss is the
 * mean of max(0, cos(g_i, h_i)) — it pushes the pair's embeddings apart. Labels are ignored.
 */
public final class CosineEmbeddingLoss extends Loss {

  /**
   * PyTorch's EPSILON (ATen's cosine_embedding_loss), added to each squared norm before their
   * product. Added once to the product instead (as 1e-8), it dominated once embeddings' norms fell
   * below about 0.01: the cosine then shrank with the norms, so shrinking them lowered the loss, and
   * Graphormer, whose BREC initialisation starts embeddings near norm 0.05, collapsed them until
   * its gradients overflowed (docs/results/brec-side-by-side-graphormer.md).
   */
  private static final float EPS = 1e-12f;

  public CosineEmbeddingLoss() {
    super("CosineEmbeddingLoss");
  }

  @Override
  public NDArray evaluate(NDList labels, NDList predictions) {
    return of(predictions.singletonOrThrow());
  }

  /** The loss of a 2k×d interleaved embedding table. */
  public static NDArray of(NDArray interleaved) {
    long rows = interleaved.getShape().get(0);
    long d = interleaved.getShape().get(1);
    if (rows % 2 != 0) {
      throw new IllegalArgumentException("interleaved embeddings need an even row count, got " + rows);
    }
    NDArray pairs = interleaved.reshape(new Shape(rows / 2, 2, d));
    NDArray g = pairs.get(":, 0, :");
    NDArray h = pairs.get(":, 1, :");
    NDArray dot = g.mul(h).sum(new int[] {1});
    NDArray norms = g.square().sum(new int[] {1}).add(EPS).mul(h.square().sum(new int[] {1}).add(EPS)).sqrt();
    return Scalars.maximum(dot.div(norms), 0f).mean();
  }
}
