package io.expresso.runtime;

import io.expresso.model.Devices;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compute device a worker owns: {@code cpu:0}, {@code cpu:1}, … or {@code gpu:0}, …
 *
 * @param type {@code cpu} or {@code gpu}
 * @param index the device's index within its type
 */
public record Device(String type, int index) {

  private static final Pattern CPU_N = Pattern.compile("cpu:(\\d+)");

  public Device {
    if (!type.equals("cpu") && !type.equals("gpu")) {
      throw new IllegalArgumentException("device type must be cpu or gpu, got '" + type + "'");
    }
  }

  public boolean isGpu() {
    return type.equals("gpu");
  }

  /** The DJL device a model on this device runs on (every CPU device shares DJL's one CPU). */
  public ai.djl.Device djl() {
    return isGpu() ? Devices.gpu(index) : ai.djl.Device.cpu();
  }

  /** This device in the single-device grammar of {@link Devices} ({@code cpu}, {@code gpu:N}). */
  public String modelName() {
    return Devices.name(djl());
  }

  /** {@code cpu:0}, {@code gpu:1}. */
  public String id() {
    return type + ":" + index;
  }

  @Override
  public String toString() {
    return id();
  }

  /**
   * Parses {@code --devices}: {@code auto} (every GPU the CUDA driver reports, else one CPU
   * device per available core), {@code cpu:N} (N CPU devices), or a comma-separated list of
   * single devices as {@link Devices#parse} reads them ({@code gpu:K}, {@code cpu}).
   */
  public static List<Device> parse(String spec) {
    return parse(spec, Device::cudaGpuCount);
  }

  /** {@link #parse(String)} with the GPU count that {@code auto} uses given. */
  static List<Device> parse(String spec, IntSupplier gpuCount) {
    String s = spec == null ? "" : spec.strip();
    if (s.equals("auto")) {
      int gpus = gpuCount.getAsInt();
      if (gpus > 0) {
        List<Device> out = new ArrayList<>(gpus);
        for (int i = 0; i < gpus; i++) {
          out.add(new Device("gpu", i));
        }
        return List.copyOf(out);
      }
      return cpus(Math.max(1, Runtime.getRuntime().availableProcessors()));
    }
    Matcher m = CPU_N.matcher(s);
    if (m.matches()) {
      int n = parseCount(m.group(1), spec);
      if (n < 1 || n > 1024) {
        throw new IllegalArgumentException("--devices " + spec + ": need 1..1024 CPU devices");
      }
      return cpus(n);
    }
    List<Device> out = new ArrayList<>();
    int cpus = 0;
    for (String part : s.split(",", -1)) {
      String p = part.strip();
      ai.djl.Device one;
      try {
        one = Devices.parse(p); // one grammar for a single device, shared with the model side
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--devices '" + spec + "': '" + p
            + "' is not a device; use auto, cpu:N or a list like gpu:0,gpu:1");
      }
      if (!one.isGpu()) {
        out.add(new Device("cpu", cpus++));
        continue;
      }
      Device d = new Device("gpu", one.getDeviceId());
      if (out.contains(d)) {
        throw new IllegalArgumentException("--devices " + spec + ": " + p + " given twice");
      }
      out.add(d);
    }
    return List.copyOf(out);
  }

  private static int parseCount(String digits, String spec) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--devices " + spec + ": number too large");
    }
  }

  /** GPUs the CUDA driver reports (DJL asks libcudart; 0 where there is none). */
  static int cudaGpuCount() {
    try {
      return Math.max(0, ai.djl.util.cuda.CudaUtils.getGpuCount());
    } catch (RuntimeException | LinkageError e) {
      return 0; // no CUDA runtime to ask: a CPU machine
    }
  }

  private static List<Device> cpus(int n) {
    List<Device> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new Device("cpu", i));
    }
    return List.copyOf(out);
  }
}
