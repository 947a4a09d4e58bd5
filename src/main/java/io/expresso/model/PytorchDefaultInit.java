package io.expresso.model;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import java.util.Map;

/**
 * The values a standard torch.nn layer's own {@code reset_parameters} gives one of its parameters
 * (PyTorch 2.x), drawn from the engine's generator: the caller seeds it.
 */
final class PytorchDefaultInit {

  private PytorchDefaultInit() {}

  /**
   * @param name the parameter's name inside the layer ({@code weight}, {@code bias}, {@code weight_hh_l0})
   * @param own all the layer's parameters by name (a bias's bound comes from its weight's fan-in)
   */
  static NDArray draw(NDManager manager, TorchScriptLayers.Layer layer, String name, NDArray param,
      Map<String, NDArray> own) {
    Shape shape = param.getShape();
    return switch (layer.kind()) {
      case FAN_IN -> {
        // kaiming_uniform_(a=√5) on the weight is U(±1/√fan_in); the bias U(±1/√fan_in) of the weight
        NDArray weight = own.getOrDefault("weight", param);
        double bound = fanIn(weight.getShape()) > 0 ? 1 / Math.sqrt(fanIn(weight.getShape())) : 0;
        yield manager.randomUniform((float) -bound, (float) bound, shape, param.getDataType(), param.getDevice());
      }
      case NORM -> name.equals("weight") ? manager.ones(shape, param.getDataType(), param.getDevice())
          : manager.zeros(shape, param.getDataType(), param.getDevice());
      case EMBEDDING -> {
        NDArray v = manager.randomNormal(0, 1, shape, param.getDataType(), param.getDevice());
        TorchScriptLayers.intConstant(layer, "padding_idx").ifPresent(row -> v.set(new NDIndex(row), 0));
        yield v;
      }
      case RECURRENT -> {
        long hidden = TorchScriptLayers.intConstant(layer, "hidden_size").orElseGet(() -> hiddenFromWeights(own));
        double bound = hidden > 0 ? 1 / Math.sqrt(hidden) : 0;
        yield manager.randomUniform((float) -bound, (float) bound, shape, param.getDataType(), param.getDevice());
      }
    };
  }

  /** torch.nn.init's fan-in: dimension 1 times the receptive field (dimensions 2…). */
  private static long fanIn(Shape weight) {
    if (weight.dimension() < 2) {
      return weight.dimension() == 1 ? weight.get(0) : 1;
    }
    long fan = weight.get(1);
    for (int i = 2; i < weight.dimension(); i++) {
      fan *= weight.get(i);
    }
    return fan;
  }

  /** A recurrent layer's hidden size: its recurrent weight's columns (weight_hh, or weight_hh_l0). */
  private static long hiddenFromWeights(Map<String, NDArray> own) {
    for (Map.Entry<String, NDArray> p : own.entrySet()) {
      if (p.getKey().startsWith("weight_hh")) {
        return p.getValue().getShape().get(1);
      }
    }
    return 0;
  }
}
