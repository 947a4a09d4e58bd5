package io.expresso.model;

import static io.expresso.model.BrecModelChecks.maxDiff;
import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.recurrent.LSTM;
import ai.djl.training.GradientCollector;
import ai.djl.training.ParameterStore;
import ai.djl.training.initializer.UniformInitializer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LstmCell against DJL's LSTM block (PyTorch's fused nn.LSTM op) on the same draws and inputs. */
class LstmCellTest {

  private static final int INPUT = 6;
  private static final int HIDDEN = 4;
  private static final int BATCH = 3;

  @Test
  void aStepIsNnLstmsOnTheSameDrawsForwardAndBackward() {
    try (NDManager m = NDManager.newBaseManager(Device.cpu())) {
      Engine.getInstance().setRandomSeed(7);
      LSTM fused = LSTM.builder().setStateSize(HIDDEN).setNumLayers(1).optBatchFirst(true).optReturnState(true).build();
      UniformInitializer init = new UniformInitializer((float) (1 / Math.sqrt(HIDDEN)));
      fused.setInitializer(init, Parameter.Type.WEIGHT);
      fused.setInitializer(init, Parameter.Type.BIAS);
      fused.initialize(m, DataType.FLOAT32, new Shape(1, 1, INPUT));
      Engine.getInstance().setRandomSeed(7);
      LstmCell cell = new LstmCell(INPUT, HIDDEN);
      cell.initialize(m, DataType.FLOAT32, new Shape(1, INPUT), new Shape(1, HIDDEN), new Shape(1, HIDDEN));
      // the same draws in the same order (weight_ih, weight_hh, bias_ih, bias_hh): a model's
      // initial weights did not change with the cell
      List<NDArray> fusedParams = arrays(fused);
      List<NDArray> cellParams = arrays(cell);
      assertThat(cellParams).hasSize(4);
      for (int k = 0; k < 4; k++) {
        assertThat(cellParams.get(k).getShape()).isEqualTo(fusedParams.get(k).getShape());
        assertThat(cellParams.get(k).toFloatArray()).containsExactly(fusedParams.get(k).toFloatArray());
      }

      NDArray x = m.randomUniform(-1, 1, new Shape(BATCH, INPUT));
      NDArray h = m.randomUniform(-1, 1, new Shape(BATCH, HIDDEN));
      NDArray c = m.randomUniform(-1, 1, new Shape(BATCH, HIDDEN));
      // a loss that weighs every output differently, so that each gradient is non-trivial
      NDArray wh = m.randomUniform(-1, 1, new Shape(BATCH, HIDDEN));
      NDArray wc = m.randomUniform(-1, 1, new Shape(BATCH, HIDDEN));
      Step reference = step(m, fused, x, h, c, wh, wc, true);
      Step ours = step(m, cell, x, h, c, wh, wc, false);
      assertThat(maxDiff(ours.h, reference.h)).as("h'").isLessThan(1e-6);
      assertThat(maxDiff(ours.c, reference.c)).as("c'").isLessThan(1e-6);
      assertThat(maxDiff(ours.h, new float[BATCH * HIDDEN])).as("a non-trivial h'").isGreaterThan(0.05);
      for (int k = 0; k < ours.grads.size(); k++) {
        assertThat(maxDiff(ours.grads.get(k), reference.grads.get(k))).as("gradient %d", k).isLessThan(1e-5);
        assertThat(maxDiff(ours.grads.get(k), new float[ours.grads.get(k).length])).as("gradient %d", k).isGreaterThan(1e-3);
      }
    }
  }

  private record Step(float[] h, float[] c, List<float[]> grads) {}

  /** h', c' and the gradients of Σ wh·h' + wc·c' by the four parameters, then x, h and c. */
  private static Step step(NDManager m, Block block, NDArray x0, NDArray h0, NDArray c0, NDArray wh, NDArray wc,
      boolean fused) {
    NDArray x = x0.duplicate();
    NDArray h = h0.duplicate();
    NDArray c = c0.duplicate();
    for (NDArray a : List.of(x, h, c)) {
      a.setRequiresGradient(true);
    }
    try (GradientCollector gc = Engine.getInstance().newGradientCollector()) {
      NDList in = fused
          ? new NDList(x.reshape(BATCH, 1, INPUT), h.reshape(1, BATCH, HIDDEN), c.reshape(1, BATCH, HIDDEN))
          : new NDList(x, h, c);
      NDList out = block.forward(new ParameterStore(m, false), in, true);
      NDArray hNext = (fused ? out.get(1) : out.get(0)).reshape(BATCH, HIDDEN);
      NDArray cNext = (fused ? out.get(2) : out.get(1)).reshape(BATCH, HIDDEN);
      gc.backward(hNext.mul(wh).sum().add(cNext.mul(wc).sum()));
      List<float[]> grads = new ArrayList<>();
      for (NDArray p : arrays(block)) {
        grads.add(p.getGradient().toFloatArray());
      }
      for (NDArray a : List.of(x, h, c)) {
        grads.add(a.getGradient().toFloatArray());
      }
      return new Step(hNext.toFloatArray(), cNext.toFloatArray(), grads);
    }
  }

  private static List<NDArray> arrays(Block block) {
    return block.getParameters().values().stream().map(Parameter::getArray).toList();
  }
}
