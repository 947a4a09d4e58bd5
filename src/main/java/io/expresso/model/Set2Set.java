package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.expresso.engine.Scalars;

/**
 * Set2Set read-out (Vinyals et al. 2016) as PyG's {@code Set2Set(f, processing_steps)}: from
 * {@code q* = 0} and a zero LSTM state, each step runs one LSTM step on q* to a query q, attends
 * over the set's rows with {@code a = softmax_rows(x · q)} and sets {@code q* = [q, Σ a·x]}; the
 * output is the last q* (2f columns). The LSTM ({@link LstmCell}, one step at a time) starts as PyTorch's
 * (every weight and bias uniform in ±1/√f).
 *
 * <p>Inputs: the sets padded to B×M×f and their mask B×M (1 a row, 0 padding; every set non-empty).
 */
final class Set2Set extends AbstractBlock {

  private final int channels;
  private final int steps;
  private final LstmCell lstm;

  Set2Set(int channels, int steps) {
    super((byte) 1);
    this.channels = channels;
    this.steps = steps;
    lstm = addChildBlock("lstm", new LstmCell(2 * channels, channels));
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray x = inputs.get(0);
    NDArray mask = inputs.get(1);
    NDManager m = x.getManager();
    long b = x.getShape().get(0);
    // padding scores far below any row's, so that exp gives it 0 and the max is a row's
    NDArray padding = Scalars.mul(mask.sub(1f), 1e30f);
    NDArray h = m.zeros(new Shape(b, channels), x.getDataType());
    NDArray c = m.zeros(new Shape(b, channels), x.getDataType());
    NDArray qStar = m.zeros(new Shape(b, 2L * channels), x.getDataType());
    for (int s = 0; s < steps; s++) {
      NDList state = lstm.forward(ps, new NDList(qStar, h, c), training);
      NDArray q = state.get(0); // the LSTM's output is its new h
      h = q;
      c = state.get(1);
      NDArray e = x.mul(q.expandDims(1)).sum(new int[] {2}).add(padding);
      // PyG's softmax: shifted by each set's (detached) maximum, 1e-16 added to the sum
      NDArray a = e.sub(e.max(new int[] {1}, true).stopGradient()).exp().mul(mask);
      a = a.div(a.sum(new int[] {1}, true).add(1e-16f));
      NDArray r = a.expandDims(2).mul(x).sum(new int[] {1});
      qStar = q.concat(r, 1);
    }
    return new NDList(qStar);
  }

  @Override
  protected void initializeChildBlocks(NDManager manager, DataType dataType, Shape... inputShapes) {
    lstm.initialize(manager, dataType, new Shape(1, 2L * channels), new Shape(1, channels), new Shape(1, channels));
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    return new Shape[] {new Shape(inputShapes[0].get(0), 2L * channels)};
  }
}
