package io.expresso.runtime;

import io.expresso.engine.Devices;
import io.expresso.engine.ThreadPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A device slot of a worker: where one evaluation at a time runs, and what one share consumer
 * acquires tasks for. {@code cpu:0}, {@code cpu:1}, … (CPU slots all share the machine's CPU),
 * {@code gpu:0}, … or, where several evaluations share one GPU, its slots {@code gpu:0/0},
 * {@code gpu:0/1}, … The DJL device a slot's models run on is {@link #djl()} (made by
 * {@link Devices}, the engine's one maker of DJL devices).
 *
 * @param type {@code cpu} or {@code gpu}
 * @param index the device's index within its type
 * @param slot which of the GPU's concurrent evaluations this is (0 for CPU devices)
 * @param slots how many evaluations share the GPU (1 for CPU devices)
 */
public record DeviceSlot(String type, int index, int slot, int slots) {

  /**
   * Evaluations sharing one GPU under {@code --devices auto}. One BREC PPGN evaluation kept an
   * H200 39 % busy (host-side work between small kernels); slots overlap that host work.
   */
  public static final int AUTO_GPU_SLOTS = 4;
  /** The most slots one GPU may be given. */
  static final int MAX_SLOTS = 64;

  private static final Pattern CPU_N = Pattern.compile("cpu:(\\d+)");
  private static final Pattern SLOTS = Pattern.compile("(.*?)x(\\d+)");

  public DeviceSlot {
    if (!type.equals("cpu") && !type.equals("gpu")) {
      throw new IllegalArgumentException("device type must be cpu or gpu, got '" + type + "'");
    }
    if (slots < 1 || slot < 0 || slot >= slots || (slots > 1 && !type.equals("gpu"))) {
      throw new IllegalArgumentException("device " + type + ":" + index + ": slot " + slot + " of " + slots
          + " (slots are for GPUs; CPU devices are counted with cpu:N)");
    }
  }

  /** A device of its own: no other evaluation shares it. */
  public DeviceSlot(String type, int index) {
    this(type, index, 0, 1);
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

  /** {@code cpu:0}, {@code gpu:1}, {@code gpu:0/2} (slot 2 of a shared GPU). */
  public String id() {
    return type + ":" + index + (slots > 1 ? "/" + slot : "");
  }

  @Override
  public String toString() {
    return id();
  }

  /**
   * Parses {@code --devices}: {@code auto} (every GPU the CUDA driver reports, {@link
   * #AUTO_GPU_SLOTS} evaluations each, else one CPU device per available core), {@code cpu:N} (N
   * CPU devices), or a comma-separated list of single devices as {@link Devices#parse} reads them
   * ({@code gpu:K}, {@code cpu}), a GPU optionally with its number of concurrent evaluations
   * ({@code gpu:0x4}).
   */
  public static List<DeviceSlot> parse(String spec) {
    return parse(spec, DeviceSlot::cudaGpuCount);
  }

  /** {@link #parse(String)} with the GPU count that {@code auto} uses given. */
  static List<DeviceSlot> parse(String spec, IntSupplier gpuCount) {
    String s = spec == null ? "" : spec.strip();
    if (s.equals("auto")) {
      int gpus = gpuCount.getAsInt();
      if (gpus > 0) {
        List<DeviceSlot> out = new ArrayList<>(gpus);
        for (int i = 0; i < gpus; i++) {
          slots(out, i, AUTO_GPU_SLOTS);
        }
        return List.copyOf(out);
      }
      return cpus(ThreadPolicy.cpuDevices());
    }
    Matcher m = CPU_N.matcher(s);
    if (m.matches()) {
      int n = parseCount(m.group(1), spec);
      if (n < 1 || n > 1024) {
        throw new IllegalArgumentException("--devices " + spec + ": need 1..1024 CPU devices");
      }
      return cpus(n);
    }
    List<DeviceSlot> out = new ArrayList<>();
    int cpus = 0;
    for (String part : s.split(",", -1)) {
      String p = part.strip();
      int slots = 1;
      Matcher x = SLOTS.matcher(p);
      if (x.matches()) {
        p = x.group(1).strip();
        slots = parseCount(x.group(2), spec);
        if (slots < 1 || slots > MAX_SLOTS || !p.startsWith("gpu")) {
          throw new IllegalArgumentException("--devices '" + spec + "': '" + part.strip() + "': slots are for a GPU,"
              + " 1.." + MAX_SLOTS + " of them, as in gpu:0x4 (CPU devices are counted with cpu:N)");
        }
      }
      ai.djl.Device one;
      try {
        one = Devices.parse(p); // one grammar for a single device, shared with the model side
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--devices '" + spec + "': '" + p
            + "' is not a device; use auto, cpu:N or a list like gpu:0,gpu:1 or gpu:0x4");
      }
      if (!one.isGpu()) {
        out.add(new DeviceSlot("cpu", cpus++));
        continue;
      }
      int gpu = one.getDeviceId();
      if (out.stream().anyMatch(d -> d.isGpu() && d.index() == gpu)) {
        throw new IllegalArgumentException("--devices " + spec + ": " + p + " given twice (for several evaluations"
            + " on it, give it once with slots: " + p + "x2)");
      }
      slots(out, gpu, slots);
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
  public static int cudaGpuCount() {
    try {
      return Math.max(0, ai.djl.util.cuda.CudaUtils.getGpuCount());
    } catch (RuntimeException | LinkageError e) {
      return 0; // no CUDA runtime to ask: a CPU machine
    }
  }

  private static void slots(List<DeviceSlot> out, int gpu, int slots) {
    for (int k = 0; k < slots; k++) {
      out.add(new DeviceSlot("gpu", gpu, k, slots));
    }
  }

  private static List<DeviceSlot> cpus(int n) {
    List<DeviceSlot> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new DeviceSlot("cpu", i));
    }
    return List.copyOf(out);
  }
}
