package io.expresso.engine;

import ai.djl.Device;

/**
 * Parses explicit device names and makes DJL's GPU devices and models; nothing here assumes a GPU
 * exists. Every GPU device Expresso uses comes from {@link #gpu}, which applies the process's
 * {@link GpuPrecision} first, and every DJL model from {@link #newModel}, which starts the engine
 * ({@link NativeEngine#start}) and on a GPU requires cuDNN's deterministic algorithms ({@link
 * CudnnDeterminism}).
 */
public final class Devices {

  private Devices() {}

  /**
   * {@code cpu} or {@code gpu:N}.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static Device parse(String name) {
    String s = name == null ? "" : name.trim();
    if (s.equals("cpu")) {
      return Device.cpu();
    }
    if (s.matches("gpu:\\d{1,3}")) {
      return gpu(Integer.parseInt(s.substring(4)));
    }
    throw new IllegalArgumentException("unknown device '" + name + "'; expected cpu or gpu:N");
  }

  /**
   * GPU {@code index}, with this process's precision applied (full fp32 unless a command chose
   * tf32) before CUDA's libraries can read it.
   *
   * @throws IllegalStateException if the precision cannot be applied
   */
  public static Device gpu(int index) {
    GpuPrecision.forGpu();
    return Device.gpu(index);
  }

  /**
   * A new DJL model on {@code device} under the started engine; on a GPU, with cuDNN's
   * deterministic algorithms, so that a seed gives the same bits in every run.
   *
   * @throws IllegalStateException if they cannot be set (see {@link CudnnDeterminism#apply})
   */
  public static ai.djl.Model newModel(String name, Device device) {
    NativeEngine.start();
    if (device.isGpu()) {
      CudnnDeterminism.apply();
    }
    return ai.djl.Model.newInstance(name, device, NativeEngine.ENGINE);
  }

  /** The name {@link #parse} accepts for this device. */
  public static String name(Device d) {
    return d.isGpu() ? "gpu:" + d.getDeviceId() : "cpu";
  }
}
