package io.expresso.model;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Parameter;
import ai.djl.nn.core.Linear;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.UniformInitializer;
import ai.djl.util.PairList;

/**
 * One step of PyTorch's one-layer {@code nn.LSTM} (its {@code LSTMCell}) in plain tensor ops:
 * {@code gates = x·W_ihᵀ + b_ih + h·W_hhᵀ + b_hh}, split into i, f, g, o;
 * {@code c' = σ(f)·c + σ(i)·tanh(g)}, {@code h' = σ(o)·tanh(c')}. Its parameters are nn.LSTM's
 * (weight_ih, weight_hh, bias_ih, bias_hh, in that order, gates in that order), each drawn
 * uniform in ±1/√hidden as nn.LSTM's {@code reset_parameters}.
 *
 * <p>Why not DJL's {@code LSTM} block: it hands its four separate weight tensors to PyTorch's fused
 * RNN op, which on CUDA wants them in one contiguous buffer and so copies them on every call
 * (PyTorch's "RNN module weights are not part of single contiguous chunk of memory" warning, once a
 * step); DJL has no {@code flatten_parameters()}. A step of a single-layer cell gains nothing from
 * the fused op.
 *
 * <p>Inputs: x (B×input), h and c (B×hidden). Outputs: h' and c' (B×hidden).
 */
final class LstmCell extends AbstractBlock {

  private static final byte VERSION = 1;

  private final int hidden;
  private final Parameter weightIh;
  private final Parameter weightHh;
  private final Parameter biasIh;
  private final Parameter biasHh;

  LstmCell(int input, int hidden) {
    super(VERSION);
    this.hidden = hidden;
    UniformInitializer init = new UniformInitializer((float) (1 / Math.sqrt(hidden)));
    weightIh = parameter("weight_ih", Parameter.Type.WEIGHT, new Shape(4L * hidden, input), init);
    weightHh = parameter("weight_hh", Parameter.Type.WEIGHT, new Shape(4L * hidden, hidden), init);
    biasIh = parameter("bias_ih", Parameter.Type.BIAS, new Shape(4L * hidden), init);
    biasHh = parameter("bias_hh", Parameter.Type.BIAS, new Shape(4L * hidden), init);
  }

  private Parameter parameter(String name, Parameter.Type type, Shape shape, UniformInitializer init) {
    return addParameter(Parameter.builder().setName(name).setType(type).optShape(shape).optInitializer(init).build());
  }

  @Override
  protected NDList forwardInternal(
      ParameterStore ps, NDList inputs, boolean training, PairList<String, Object> params) {
    NDArray x = inputs.get(0);
    NDArray h = inputs.get(1);
    NDArray c = inputs.get(2);
    Device device = x.getDevice();
    NDArray gates = Linear.linear(x, ps.getValue(weightIh, device, training), ps.getValue(biasIh, device, training))
        .singletonOrThrow()
        .add(Linear.linear(h, ps.getValue(weightHh, device, training), ps.getValue(biasHh, device, training))
            .singletonOrThrow());
    NDList g = gates.split(4, 1); // i, f, g, o
    NDArray cNext = Activation.sigmoid(g.get(1)).mul(c).add(Activation.sigmoid(g.get(0)).mul(g.get(2).tanh()));
    NDArray hNext = Activation.sigmoid(g.get(3)).mul(cNext.tanh());
    return new NDList(hNext, cNext);
  }

  @Override
  public Shape[] getOutputShapes(Shape[] inputShapes) {
    Shape state = new Shape(inputShapes[0].get(0), hidden);
    return new Shape[] {state, state};
  }
}
