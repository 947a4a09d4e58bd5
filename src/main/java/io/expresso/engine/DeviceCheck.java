package io.expresso.engine;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.SplittableRandom;

/**
 * Runs one small float32 matrix product on a device and compares it with the same product in
 * double precision on the host: proof that the device computes, and how far its arithmetic is from
 * exact (full fp32 stays near 1e-6 relative; TF32 about 1e-3).
 *
 * @param device where it ran
 * @param seconds wall time of the product, the copies and the device's first use (a GPU's context) included;
 *     not the engine's start
 * @param maxRelativeError the largest |device − exact| / max |exact| over the product's entries
 */
public record DeviceCheck(Device device, double seconds, double maxRelativeError) {

  /** Side of the square matrices: large enough for cuBLAS to pick tensor-core kernels where it may. */
  public static final int SIDE = 256;

  /**
   * Loads the PyTorch engine if needed and runs the product on {@code device}.
   *
   * @throws RuntimeException (DJL's engine errors) if the device cannot run it
   */
  public static DeviceCheck run(Device device) {
    SplittableRandom rng = new SplittableRandom(7);
    float[] a = new float[SIDE * SIDE];
    float[] b = new float[SIDE * SIDE];
    for (int i = 0; i < a.length; i++) {
      a[i] = (float) rng.nextDouble(-1, 1);
      b[i] = (float) rng.nextDouble(-1, 1);
    }
    NativeEngine.start(); // its start (native libraries) is not the device's time
    Engine engine = Engine.getEngine(NativeEngine.ENGINE);
    long start = System.nanoTime();
    float[] product;
    try (NDManager m = engine.newBaseManager(device)) {
      NDArray x = m.create(a, new Shape(SIDE, SIDE));
      NDArray y = m.create(b, new Shape(SIDE, SIDE));
      product = x.matMul(y).toFloatArray();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double worst = 0;
    double scale = 0;
    for (int i = 0; i < SIDE; i++) {
      for (int j = 0; j < SIDE; j++) {
        double exact = 0;
        for (int k = 0; k < SIDE; k++) {
          exact += (double) a[i * SIDE + k] * b[k * SIDE + j];
        }
        worst = Math.max(worst, Math.abs(product[i * SIDE + j] - exact));
        scale = Math.max(scale, Math.abs(exact));
      }
    }
    return new DeviceCheck(device, seconds, worst / scale);
  }
}
