package io.expresso.model;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.ndarray.NDArray;
import ai.djl.training.GradientCollector;
import ai.djl.training.optimizer.Optimizer;
import io.expresso.graph.Graph;
import java.util.List;

/**
 * A DJL block over a batch of graphs. Each architecture encodes its own input tensors from the
 * graphs ({@link #encode}) and maps them to a B×{@link #outputSize()} output. Parameter shapes
 * depend only on the spec, never on graph sizes, so children are initialised from the spec.
 */
public abstract class GraphBlock extends AbstractBlock {

  protected GraphBlock() {
    super((byte) 1);
  }

  /** The input tensors for this batch of graphs, created on {@code manager} (no sign flips). */
  public final NDList encode(NDManager manager, List<Graph> graphs) {
    return encode(manager, GraphBatch.of(graphs), null);
  }

  /**
   * The input tensors for this batch of graphs, created on {@code manager}. Node labels reach only a
   * block whose spec reads them ({@link ModelSpec#nodeLabels}, GIN); {@link GraphModel} refuses a
   * labelled batch for any other, so the others read {@code batch.graphs()} alone.
   *
   * @param peSigns with positional encodings ({@link ModelSpec#pe}), one ±1 per encoding column that
   *     multiplies it (training's random sign flips, {@link LaplacianPe#signs}); null: no flips
   */
  public abstract NDList encode(NDManager manager, GraphBatch batch, float[] peSigns);

  /** Columns of the output (d for an embedding, 1 for a scalar head before squeezing). */
  public abstract int outputSize();

  /**
   * The size dense tensors of {@code g} are padded to; a batch pads to the largest over its graphs.
   * The graph's order by default; I²-GNN pads each subgraph to its largest k-hop ball.
   */
  public int paddedSize(Graph g) {
    return g.n();
  }

  /**
   * Bytes of activations one pass keeps for graph {@code g}, in a batch whose largest
   * {@link #paddedSize} is {@code maxVertices} (dense models pad to it): an upper estimate that sizes passes
   * under a memory budget. Training and inference alike: DJL frees a pass's intermediates only
   * when the pass ends, so inference holds about what a training step holds for backward.
   */
  public abstract long bytesPerGraph(Graph g, int maxVertices);

  /**
   * Seeds the block's own random draws from the model's seed: DropGNN draws its dropped vertices in
   * {@link #encode}, in training and evaluation alike. Blocks that draw nothing ignore it.
   */
  void seedDraws(long seed) {}

  /**
   * True when {@link #encode} draws at random: its model then runs inference passes one after
   * another, in the graphs' order, so the draws and so the embeddings are the seed's on any number
   * of threads.
   */
  boolean drawsAtRandom() {
    return false;
  }

  /**
   * A term its last training forward adds to the trainer's loss, handed over once (OSAN's KL term
   * over its sampled subgraphs); null for none.
   */
  NDArray trainingLossTerm() {
    return null;
  }

  /**
   * Called after each training pass's backward, before the pass's arrays are freed: a block whose
   * gradient autograd cannot take (OSAN's I-MLE through a discrete sample) completes it here.
   */
  void completeBackward(GradientCollector collector) {}

  /** The optimizer of this block's parameters given the trainer's; a block with parts of its own optimizer wraps it. */
  Optimizer optimizer(Optimizer main) {
    return main;
  }

  /** Initialises every child block with shapes computed from the spec. */
  protected abstract void initializeFromSpec(NDManager manager, DataType dataType);

  @Override
  protected final void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    initializeFromSpec(manager, dataType);
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(-1, outputSize())};
  }
}
