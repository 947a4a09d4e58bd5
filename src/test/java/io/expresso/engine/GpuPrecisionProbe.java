package io.expresso.engine;

/**
 * Run in a fresh JVM by {@link GpuPrecisionTest} (the precision is fixed once per process): makes
 * GPU devices the ways Expresso does, with no GPU present, and prints what the native environment
 * and ATen's cuDNN flag (the CPU libtorch holds it too) say after each step.
 */
public final class GpuPrecisionProbe {

  private GpuPrecisionProbe() {}

  public static void main(String[] args) {
    say("start", NativeEnvironment.get(GpuPrecision.OVERRIDE));
    if (args.length > 0 && args[0].equals("tf32")) {
      GpuPrecision.choose(Precision.TF32);
      say("chosen", GpuPrecision.current().label());
    }
    Devices.parse("cpu");
    say("after-cpu", NativeEnvironment.get(GpuPrecision.OVERRIDE));
    Devices.newModel("probe-cpu", ai.djl.Device.cpu()).close(); // a CPU model: the engine started, cuDNN set with it
    say("cudnn-deterministic-cpu-only", String.valueOf(CudnnDeterminism.current()));
    ai.djl.Device gpu = new io.expresso.runtime.DeviceSlot("gpu", 1).djl();
    say("gpu", gpu.isGpu() + " " + gpu.getDeviceId());
    say("after-gpu", NativeEnvironment.get(GpuPrecision.OVERRIDE));
    say("precision", GpuPrecision.of(gpu).label());
    Devices.newModel("probe-gpu", gpu).close(); // a model on it, made as every model is
    say("cudnn-deterministic", String.valueOf(CudnnDeterminism.current()));
    Precision other = GpuPrecision.current() == Precision.FP32 ? Precision.TF32 : Precision.FP32;
    try {
      GpuPrecision.choose(other);
      say("switch", "allowed");
    } catch (IllegalStateException e) {
      say("switch", e.getMessage());
    }
    say("end", NativeEnvironment.get(GpuPrecision.OVERRIDE));
  }

  private static void say(String key, String value) {
    System.out.println(key + "=" + value);
  }
}
